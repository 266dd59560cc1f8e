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

    /**
     * Whether figures kept per tenant carry the tenant's name, as the tag
     * {@code tenant} ({@code sluice_queue_depth} and
     * {@code sluice_queue_oldest_wait_seconds}, ADR 0071). Off, each is one
     * series for the whole queue (every tenant's dispatches, the longest wait
     * of any), and no tenant's name appears in {@code /q/metrics}: whoever
     * reads the management port learns nothing of who uses the worker. Turn it
     * on where the scrapers are the operator's own and per-tenant panels and
     * alerts are wanted.
     */
    @WithDefault("false")
    boolean tenantTag();
}
