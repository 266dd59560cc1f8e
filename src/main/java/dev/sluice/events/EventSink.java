package dev.sluice.events;

import java.util.concurrent.CompletionStage;

/** Where a subscriber's events go: the open HTTP response, seen through the REST layer. */
public interface EventSink {

    /** Sends one event; the stage completes once it was written, or fails when it could not be. */
    CompletionStage<?> send(EventMessage message);

    /** A comment line, to get the response's head out before the first event. */
    CompletionStage<?> open();

    boolean isClosed();

    void close();
}
