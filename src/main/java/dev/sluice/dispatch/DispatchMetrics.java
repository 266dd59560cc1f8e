package dev.sluice.dispatch;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.MeterRegistry;

/** Counts finished dispatches by status. */
@Singleton
class DispatchMetrics {

    @Inject
    MeterRegistry metrics;

    void finished(@Observes DispatchFinished event) {
        metrics.counter("sluice.dispatches.finished", "status", event.status().wire())
                .increment();
    }
}
