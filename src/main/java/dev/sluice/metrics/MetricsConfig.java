package dev.sluice.metrics;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Figures that need the store are read on a schedule, never by a scrape (ADR 0020). */
@ConfigMapping(prefix = "sluice.metrics")
public interface MetricsConfig {

    /** How often the outbox's pending deliveries are counted, for {@code sluice_callback_outbox_pending}. */
    @WithDefault("15s")
    Duration outboxInterval();

    /** How long that count may take before the database cancels it. */
    @WithDefault("2s")
    Duration outboxTimeout();

    /**
     * How often the dispatches queued in the store are counted, for
     * {@code sluice_queue_depth} and {@code sluice_queue_oldest_wait_seconds}:
     * what an autoscaler reads sees the queue this late, at most.
     */
    @WithDefault("15s")
    Duration queueInterval();

    /** How long that count may take before the database cancels it. */
    @WithDefault("2s")
    Duration queueTimeout();
}
