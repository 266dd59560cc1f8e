package dev.sluice.dispatch;

import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Announces what happens to dispatches: callback delivery listens for stored
 * results (its outbox row is already written; the event only saves it waiting
 * for the next poll), and the metrics count acceptances and results by status.
 */
@Singleton
public class DispatchEvents {

    /** Fired after a dispatch's result is stored. */
    public record Finished(DispatchResult result) {
    }

    @Inject
    Event<Finished> finished;

    @Inject
    MeterRegistry metrics;

    void accepted() {
        metrics.counter("sluice.dispatches.accepted").increment();
    }

    void finished(DispatchResult result) {
        metrics.counter("sluice.dispatches.finished", "status", result.status().wire()).increment();
        finished.fire(new Finished(result));
    }
}
