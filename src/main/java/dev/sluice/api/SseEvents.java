package dev.sluice.api;

import java.util.concurrent.CompletionStage;

import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

import dev.sluice.events.EventMessage;
import dev.sluice.events.EventSink;

/** An event stream's open response, as the events feature sees it: the data is JSON, written as it is. */
final class SseEvents implements EventSink {

    private final SseEventSink sink;
    private final Sse sse;

    /** The state a client saw last, from {@code Last-Event-ID}: 0 when none, or not one of ours. */
    static int lastEventId(String header) {
        if (header == null || !header.strip().matches("[0-9]{1,2}")) {
            return 0;
        }
        return Integer.parseInt(header.strip());
    }

    SseEvents(SseEventSink sink, Sse sse) {
        this.sink = sink;
        this.sse = sse;
    }

    @Override
    public CompletionStage<?> send(EventMessage message) {
        // No media type of its own: the data is written as it is, and no content-type field goes with it.
        OutboundSseEvent.Builder event =
                sse.newEventBuilder().name(message.name()).data(String.class, message.data());
        if (message.id() != null) {
            event.id(message.id());
        }
        return sink.send(event.build());
    }

    @Override
    public CompletionStage<?> open() {
        return sink.send(sse.newEventBuilder().comment("sluice events").build());
    }

    @Override
    public boolean isClosed() {
        return sink.isClosed();
    }

    @Override
    public void close() {
        sink.close();
    }
}
