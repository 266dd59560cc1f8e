package dev.sluice.api;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionStage;

import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

import dev.sluice.actions.ProblemException;
import dev.sluice.events.EventHub;
import dev.sluice.events.EventMessage;
import dev.sluice.events.EventSink;

/** An event stream's open response, as the events feature sees it: the data is JSON, written as it is. */
final class SseEvents implements EventSink {

    private final SseEventSink sink;
    private final Sse sse;

    /**
     * Refusal of a stream past {@code sluice.events.max-subscribers} or the
     * tenant's {@code max-subscribers-per-tenant}: 429, as for every bound the
     * worker keeps on what clients ask at once (ADR 0054), not 503, which says
     * the worker itself is failing. Null when the stream was opened.
     */
    static ProblemException refusal(EventHub.Admission admission, Duration retryAfter) {
        if (admission == EventHub.Admission.OPEN) {
            return null;
        }
        String detail = admission == EventHub.Admission.TENANT_FULL
                ? "as many event streams of this tenant are open as sluice.events.max-subscribers-per-tenant allows;"
                        + " try again later"
                : "the worker has as many event streams open as sluice.events.max-subscribers allows; try again later";
        return new ProblemException(
                429,
                "too-many-streams",
                "Too many event streams",
                detail,
                null,
                Map.of("Retry-After", Long.toString(Math.max(1, retryAfter.toSeconds()))));
    }

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
