package dev.sluice.callback;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * When to try a delivery again: the configured delay before attempt n+1, with
 * random jitter, and never before a receiver's Retry-After (up to a limit).
 */
public final class RetrySchedule {

    private final List<Duration> delays;
    private final double jitter;
    private final Duration maxRetryAfter;
    private final DoubleSupplier random;

    /**
     * @param random uniform in [0, 1); a seeded source in tests
     */
    public RetrySchedule(List<Duration> delays, double jitter, Duration maxRetryAfter, DoubleSupplier random) {
        if (delays.isEmpty()) {
            throw new IllegalArgumentException("sluice.callback.retry-schedule must name at least one attempt");
        }
        if (jitter < 0 || jitter >= 1) {
            throw new IllegalArgumentException("sluice.callback.jitter must be in [0, 1)");
        }
        this.delays = List.copyOf(delays);
        this.jitter = jitter;
        this.maxRetryAfter = maxRetryAfter;
        this.random = random;
    }

    public int attempts() {
        return delays.size();
    }

    /** When the first attempt of a round is due. */
    public Instant first(Instant now) {
        return now.plus(jittered(delays.get(0)));
    }

    /**
     * When to try again after the {@code attempt}-th attempt of a round failed
     * (1-based), or empty when the round is exhausted.
     */
    public Optional<Instant> next(int attempt, Instant now, Optional<Duration> retryAfter) {
        if (attempt >= delays.size()) {
            return Optional.empty();
        }
        Instant scheduled = now.plus(jittered(delays.get(attempt)));
        Instant notBefore = retryAfter
                .map(d -> now.plus(d.compareTo(maxRetryAfter) > 0 ? maxRetryAfter : d))
                .orElse(now);
        return Optional.of(scheduled.isBefore(notBefore) ? notBefore : scheduled);
    }

    private Duration jittered(Duration delay) {
        double factor = 1 + jitter * (2 * random.getAsDouble() - 1);
        return Duration.ofMillis(Math.round(delay.toMillis() * factor));
    }
}
