package dev.sluice.metrics;

import java.time.Clock;
import java.time.Duration;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import dev.sluice.store.StoreMonitor;
import dev.sluice.store.StoreWrite;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;

/** The store's meters: every write's latency by operation, and how long ago the store last answered. */
@Singleton
class StoreMeters {

    /** An embedded write takes a millisecond, a remote one a few; the stall timeout is minutes. */
    private static final Duration[] WRITE =
            Histograms.seconds(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5);

    private final MeterRegistry registry;

    StoreMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    void wrote(@Observes StoreWrite write) {
        Histograms.timer(
                        registry,
                        "sluice.store.write.duration",
                        "Writes to the store (transactions and single statements) by operation and"
                                + " outcome (ok, error), from taking a connection to the commit or the failure",
                        WRITE,
                        "operation",
                        write.operation(),
                        "outcome",
                        write.failed() ? "error" : "ok")
                .record(write.took());
    }

    /** Registered once the monitor exists; a scrape reads its last answer, it never queries the store. */
    void gauges(@Observes StartupEvent start, StoreMonitor store, Clock clock) {
        Gauge.builder(
                        "sluice.store.last.answer.age",
                        store,
                        s -> Duration.between(s.last().lastAnswer(), clock.instant())
                                        .toMillis()
                                / 1000.0)
                .description("Seconds since the store last answered its health probe (every"
                        + " sluice.store.probe-interval); past sluice.store.stall-timeout it is stalled")
                .baseUnit("seconds")
                .strongReference(true)
                .register(registry);
    }
}
