package dev.sluice.metrics;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import dev.sluice.callback.CallbackStore;
import dev.sluice.callback.DeliveryAttempted;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Callback delivery's meters: attempts by outcome with their latency, why
 * attempts failed, dead letters, and the outbox's depth. The outbox is shared
 * by every worker on the store, so each reports the same depth; it is counted
 * on a schedule ({@link MetricsJobs}), and a scrape only reads the last count.
 */
@Singleton
class CallbackMeters {

    /** From a receiver on the same host to the default attempt timeout of 15 s and past it. */
    private static final Duration[] ATTEMPT = Histograms.seconds(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30);

    private final MeterRegistry registry;
    private final Map<DeliveryAttempted.Outcome, Timer> attempts = new EnumMap<>(DeliveryAttempted.Outcome.class);
    private final Map<DeliveryAttempted.Outcome, Counter> deadLetters = new EnumMap<>(DeliveryAttempted.Outcome.class);
    /** NaN until the first count, and after a count that failed: a gap, not a stale figure. */
    private volatile double pending = Double.NaN;

    CallbackMeters(MeterRegistry registry) {
        this.registry = registry;
        for (DeliveryAttempted.Outcome outcome : DeliveryAttempted.Outcome.values()) {
            attempts.put(
                    outcome,
                    Histograms.timer(
                            registry,
                            "sluice.callback.attempt.duration",
                            "Callback attempts by outcome (delivered, retry, dead_letter),"
                                    + " from sending the request to the end of the answer or the failure",
                            ATTEMPT,
                            "outcome",
                            outcome.deadLetter() ? "dead_letter" : lower(outcome)));
            if (outcome.deadLetter()) {
                deadLetters.put(
                        outcome,
                        Counter.builder("sluice.callback.dead.letters")
                                .description("Deliveries given up, by reason: gone (the receiver answered 410),"
                                        + " exhausted (the retry schedule ran out); each can be redelivered")
                                .tag("reason", lower(outcome))
                                .register(registry));
            }
        }
        Gauge.builder("sluice.callback.outbox.pending", this, m -> m.pending)
                .description("Deliveries waiting for an attempt in the outbox that all workers share")
                .strongReference(true)
                .register(registry);
    }

    void attempted(@Observes DeliveryAttempted attempt) {
        attempts.get(attempt.outcome()).record(attempt.took());
        if (attempt.failure() != null) {
            Counter.builder("sluice.callback.attempt.failures")
                    .description("Callback attempts that got no 2xx, by reason: refused_address, unresolved,"
                            + " connect, timeout, reset, tls, io, unsigned, redirect or http_<n>xx")
                    .tag("reason", attempt.failure())
                    .register(registry)
                    .increment();
        }
        if (attempt.outcome().deadLetter()) {
            deadLetters.get(attempt.outcome()).increment();
        }
    }

    /** Counts the outbox, within {@code timeout}; a count that fails leaves a gap and is passed on. */
    void countOutbox(CallbackStore outbox, Duration timeout) {
        try {
            pending = outbox.pending(timeout);
        } catch (RuntimeException e) {
            pending = Double.NaN;
            throw e;
        }
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
