package dev.sluice.metrics;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.record.DispatchKey;
import dev.sluice.record.WaitingDispatches;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * The queue that every worker on the store shares: how many dispatches wait,
 * and how long the oldest has waited; per tenant, with the tenant's name as
 * the tag {@code tenant}, only where {@code sluice.metrics.tenant-tag} asks
 * for it (ADR 0071), else one series for the whole queue. Each worker counts
 * the same rows, so each reports the same figures (a query takes their
 * maximum across pods). The store is counted on a schedule
 * ({@link MetricsJobs}); a scrape reads the last count, and only the wait is
 * brought up to the scrape's moment, so it grows between counts as the real
 * wait does.
 */
@Singleton
class QueueMeters {

    /** The key of the one series of the whole queue, when tenants are not told apart. */
    private static final String WHOLE = "";

    private final MeterRegistry registry;
    private final Clock clock;
    private final boolean byTenant;
    /** Tenants seen waiting, kept at 0 once their queue empties: as many as the tokens name; or the whole queue. */
    private final Map<String, Figures> tenants = new ConcurrentHashMap<>();

    @Inject
    QueueMeters(MeterRegistry registry, Clock clock, MetricsConfig config) {
        this(registry, clock, config.tenantTag());
    }

    /** @param byTenant whether each tenant has series of its own, tagged with its name */
    QueueMeters(MeterRegistry registry, Clock clock, boolean byTenant) {
        this.registry = registry;
        this.clock = clock;
        this.byTenant = byTenant;
    }

    /**
     * Counts the waiting dispatches within {@code timeout}. The default tenant
     * (or the whole queue) always has its series once a count succeeded, so
     * that a sum over tenants is 0, not empty, when nothing waits. A count
     * that fails leaves a gap in every series and is passed on.
     */
    void count(WaitingDispatches waiting, Duration timeout) {
        List<WaitingDispatches.Tenant> counted;
        try {
            counted = waiting.count(timeout);
        } catch (RuntimeException e) {
            tenants.values().forEach(f -> f.set(Double.NaN, null));
            throw e;
        }
        if (!byTenant) {
            figures(WHOLE)
                    .set(
                            counted.stream()
                                    .mapToLong(WaitingDispatches.Tenant::count)
                                    .sum(),
                            counted.stream()
                                    .map(WaitingDispatches.Tenant::oldest)
                                    .filter(Objects::nonNull)
                                    .min(Comparator.naturalOrder())
                                    .orElse(null));
            return;
        }
        Map<String, WaitingDispatches.Tenant> byName =
                counted.stream().collect(Collectors.toMap(WaitingDispatches.Tenant::tenant, Function.identity()));
        figures(DispatchKey.DEFAULT_TENANT);
        byName.keySet().forEach(this::figures);
        tenants.forEach((name, f) -> {
            WaitingDispatches.Tenant t = byName.get(name);
            f.set(t == null ? 0 : t.count(), t == null ? null : t.oldest());
        });
    }

    private Figures figures(String tenant) {
        return tenants.computeIfAbsent(tenant, this::register);
    }

    private Figures register(String tenant) {
        Figures f = new Figures();
        Tags tags = tenant.equals(WHOLE) ? Tags.empty() : Tags.of("tenant", tenant);
        Gauge.builder("sluice.queue.depth", f, Figures::depth)
                .description("Dispatches queued in the store and not yet started, across every worker on it"
                        + " (by tenant with sluice.metrics.tenant-tag); counted every sluice.metrics.queue-interval")
                .tags(tags)
                .strongReference(true)
                .register(registry);
        Gauge.builder("sluice.queue.oldest.wait", f, figures -> figures.waited(clock.instant()))
                .description("Seconds since the oldest queued dispatch was accepted (by tenant with"
                        + " sluice.metrics.tenant-tag); 0 when none waits")
                .baseUnit("seconds")
                .tags(tags)
                .strongReference(true)
                .register(registry);
        return f;
    }

    /** One tenant's last count: NaN before the first and after one that failed, a gap rather than a stale figure. */
    private static final class Figures {

        private volatile double depth = Double.NaN;
        /** The oldest waiting dispatch's acceptance; null when none waits. */
        private volatile Instant oldest;

        void set(double depth, Instant oldest) {
            this.oldest = oldest;
            this.depth = depth;
        }

        double depth() {
            return depth;
        }

        /** A clock a little behind the accepting worker's gives a wait below 0: read as none yet. */
        double waited(Instant now) {
            Instant since = oldest;
            if (Double.isNaN(depth)) {
                return Double.NaN;
            }
            return since == null ? 0 : Math.max(0, Duration.between(since, now).toMillis() / 1000.0);
        }
    }
}
