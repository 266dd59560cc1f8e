package dev.sluice.metrics;

import java.time.Duration;
import java.util.Locale;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import dev.sluice.container.engine.EngineCall;
import dev.sluice.container.engine.EngineMonitor;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;

/** The engine's meters: every call's latency and outcome by operation, and whether the engine is up. */
@Singleton
class EngineMeters {

    /** A healthy engine answers in milliseconds, a busy one in seconds; the default call timeout is 30 s. */
    private static final Duration[] CALL =
            Histograms.seconds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30);

    private final MeterRegistry registry;

    EngineMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    void called(@Observes EngineCall call) {
        Histograms.timer(
                        registry,
                        "sluice.engine.call.duration",
                        "Calls to the Docker engine by operation and outcome (ok, error: a 5xx, timeout,"
                                + " unreachable), until the answer's head or the failure",
                        CALL,
                        "operation",
                        call.operation(),
                        "outcome",
                        call.outcome().name().toLowerCase(Locale.ROOT))
                .record(call.took());
    }

    /** Registered once the monitor exists; a scrape reads its last answer, it never pings. */
    void gauges(@Observes StartupEvent start, EngineMonitor engine) {
        Gauge.builder("sluice.engine.up", engine, e -> e.available() ? 1 : 0)
                .description("1 while the engine answers its ping and its calls are not timing out, as readiness"
                        + " sees it; else 0")
                .strongReference(true)
                .register(registry);
    }
}
