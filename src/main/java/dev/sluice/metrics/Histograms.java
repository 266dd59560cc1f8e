package dev.sluice.metrics;

import java.time.Duration;
import java.util.Arrays;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Timers that Prometheus reads as histograms, with about a dozen buckets each,
 * chosen around the times that mean something for the meter. Micrometer's
 * percentile histogram would publish some seventy for each combination of
 * tags.
 */
final class Histograms {

    private Histograms() {}

    /** Bucket bounds, in seconds. */
    static Duration[] seconds(double... bounds) {
        return Arrays.stream(bounds)
                .mapToObj(s -> Duration.ofNanos(Math.round(s * 1e9)))
                .toArray(Duration[]::new);
    }

    /** The timer of these tags ({@code key, value, ...}), registered on first use. */
    static Timer timer(MeterRegistry registry, String name, String description, Duration[] buckets, String... tags) {
        return Timer.builder(name)
                .description(description)
                .tags(tags)
                .serviceLevelObjectives(buckets)
                .register(registry);
    }
}
