package dev.sluice.actions;

import java.time.Duration;
import java.util.Map;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.events.EventHub;
import dev.sluice.events.EventSink;
import dev.sluice.events.EventsConfig;
import dev.sluice.events.MetadataFilter;
import dev.sluice.record.DispatchConfig;

/**
 * The live event streams a door opens for its caller (docs/api.md, section
 * 2.12): one dispatch's, or every dispatch's the caller may see. The door hands
 * over its open response as an {@link EventSink}, the port the events feature
 * writes to; past {@code sluice.events.max-subscribers}, or the tenant's
 * {@code max-subscribers-per-tenant}, a stream is refused with 429 and
 * {@code Retry-After}, as every bound on what clients ask at once is (ADR
 * 0054), not 503, which says the worker itself is failing.
 */
@Singleton
public class EventStreams {

    private final EventHub hub;
    private final int maxStreams;
    private final Duration retryAfter;

    @Inject
    EventStreams(EventHub hub, EventsConfig events, DispatchConfig dispatches) {
        this(hub, events.maxSubscribers(), dispatches.retryAfter());
    }

    EventStreams(EventHub hub, int maxStreams, Duration retryAfter) {
        this.hub = hub;
        this.maxStreams = maxStreams;
        this.retryAfter = retryAfter;
    }

    /**
     * Streams the dispatch the caller names {@code id} onto {@code sink}, from
     * after the state {@code lastEventId} (0: from its first); refused when too
     * many streams are open.
     */
    public void follow(Caller caller, String id, int lastEventId, EventSink sink) {
        admitted(hub.subscribe(caller.tenant(), caller.dispatchKey(id), lastEventId, sink));
    }

    /**
     * Streams every dispatch the caller may see (every tenant's for an operator)
     * onto {@code sink}, only those {@code filter} keeps (null: all); refused
     * when too many streams are open.
     */
    public void followAll(Caller caller, MetadataFilter filter, EventSink sink) {
        admitted(hub.subscribeAll(caller.tenant(), caller.operator(), filter, sink));
    }

    /** The refusal of a stream this worker has no room for, as relayed streams are refused. */
    public ProblemException full() {
        return refusal(EventHub.Admission.WORKER_FULL);
    }

    /** How many streams the worker serves at once ({@code sluice.events.max-subscribers}). */
    public int maxStreams() {
        return maxStreams;
    }

    private void admitted(EventHub.Admission admission) {
        if (admission != EventHub.Admission.OPEN) {
            throw refusal(admission);
        }
    }

    private ProblemException refusal(EventHub.Admission admission) {
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
}
