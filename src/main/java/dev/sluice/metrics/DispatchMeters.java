package dev.sluice.metrics;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchAccepted;
import dev.sluice.record.DispatchFinished;
import dev.sluice.run.DispatchLoad;
import dev.sluice.run.QueueWait;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.StartupEvent;

/**
 * The lifecycle's meters: dispatches accepted, how long they waited for a
 * slot and ran, how they ended, and what this worker has in hand. Every
 * terminal status is registered from the start, so a rate over the first
 * dispatch of a kind sees it.
 */
@Singleton
class DispatchMeters {

    /** From a slot free at once to the default max-queue-wait of an hour. */
    private static final Duration[] QUEUE_WAIT = Histograms.seconds(0.1, 0.5, 1, 5, 15, 30, 60, 300, 900, 1800, 3600);

    /** From a one-line script to the max-timeout of six hours. */
    private static final Duration[] RUN = Histograms.seconds(1, 5, 15, 30, 60, 300, 900, 1800, 3600, 7200, 21600);

    private final MeterRegistry registry;
    private final Counter accepted;
    private final Timer queueWait;
    private final Map<Dispatch.Status, Counter> finished = new EnumMap<>(Dispatch.Status.class);
    private final Map<Dispatch.Status, Timer> ran = new EnumMap<>(Dispatch.Status.class);

    DispatchMeters(MeterRegistry registry) {
        this.registry = registry;
        this.accepted = Counter.builder("sluice.dispatches.accepted")
                .description("Dispatches accepted by this worker; a replayed request is not counted again")
                .register(registry);
        this.queueWait = Histograms.timer(
                registry,
                "sluice.dispatch.queue.wait",
                "Time from acceptance until a dispatch took a run slot",
                QUEUE_WAIT);
        for (Dispatch.Status status : Dispatch.Status.values()) {
            if (status.terminal()) {
                finished.put(
                        status,
                        Counter.builder("sluice.dispatches.finished")
                                .description("Dispatches that reached a terminal status, by status")
                                .tag("status", status.wire())
                                .register(registry));
                ran.put(
                        status,
                        Histograms.timer(
                                registry,
                                "sluice.dispatch.run.duration",
                                "Time from a dispatch's start to its end, by terminal status;"
                                        + " dispatches that never started are not counted",
                                RUN,
                                "status",
                                status.wire()));
            }
        }
    }

    void accepted(@Observes DispatchAccepted event) {
        accepted.increment();
    }

    void waited(@Observes QueueWait event) {
        queueWait.record(event.waited());
    }

    void finished(@Observes DispatchFinished event) {
        finished.get(event.status()).increment();
        if (event.ran() != null) {
            ran.get(event.status()).record(event.ran());
        }
    }

    /** Registered once the scheduler exists; a scrape reads its counts and never reaches the engine or the store. */
    void gauges(@Observes StartupEvent start, DispatchLoad load) {
        Gauge.builder("sluice.dispatches.running", load, DispatchLoad::running)
                .description("Dispatches holding a run slot on this worker")
                .strongReference(true)
                .register(registry);
        Gauge.builder("sluice.dispatches.queued", load, DispatchLoad::queued)
                .description("Dispatches waiting for a run slot on this worker")
                .strongReference(true)
                .register(registry);
    }
}
