package dev.sluice.testsupport;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.sluice.events.EventMessage;
import dev.sluice.events.EventSink;

/** An open event stream that takes every event at once and never closes: a subscriber nobody reads. */
public final class OpenSink implements EventSink {

    @Override
    public CompletionStage<?> send(EventMessage message) {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletionStage<?> open() {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public boolean isClosed() {
        return false;
    }

    @Override
    public void close() {}
}
