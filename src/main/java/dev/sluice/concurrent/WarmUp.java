package dev.sluice.concurrent;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.jboss.logging.Logger;

/**
 * The worker's warm-up, fired once after start-up as an asynchronous CDI
 * event: each feature observes it ({@code @ObservesAsync}) and takes its own
 * part of a dispatch's way once, so that the first real dispatch does not pay
 * for loading, linking and first running that code (BENCHMARKS.md, P3). The
 * observers run one after another on one background thread, in a dispatch's
 * order ({@code @Priority}).
 *
 * <p>A warm-up leaves nothing anyone can see: no record, no container, no
 * callback, and no log line above DEBUG but the one that sums it up. It calls
 * the engine and the store only in ways that change nothing (a read or a
 * conditional update of an {@linkplain #unknownId() id that cannot exist}, a
 * call about a container of that name), and every such call has a deadline:
 * the engine clients' own, and {@link #timeLeft()} for store statements.
 */
public final class WarmUp {

    /** The observers' order ({@code @Priority}): a dispatch's own, so the first request's way is warm first. */
    public static final int API = 10;

    public static final int DISPATCH = 20;
    public static final int CONTAINER = 30;
    public static final int OUTPUT = 40;
    public static final int CALLBACK = 50;

    private static final Logger LOG = Logger.getLogger(WarmUp.class);

    /** How a step went: its name, how long it took, and why it failed ({@code null} when it did not). */
    public record Step(String name, long millis, String failure) {}

    private final Clock clock;
    private final Instant deadline;
    private final List<Step> steps = new ArrayList<>();

    public WarmUp(Clock clock, Duration within) {
        this.clock = clock;
        this.deadline = clock.instant().plus(within);
    }

    /**
     * Runs one step, never throwing: a step that fails, or that is not reached
     * before the deadline, is noted (and logged at DEBUG) and the next one runs.
     */
    public void step(String name, Runnable work) {
        if (timeLeft().isZero()) {
            record(new Step(name, 0, "skipped: past the warm-up's deadline"));
            return;
        }
        long start = System.nanoTime();
        String failure = null;
        try {
            work.run();
        } catch (RuntimeException e) {
            failure = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            LOG.debugf("warm-up step %s failed: %s", name, failure);
        }
        record(new Step(name, (System.nanoTime() - start) / 1_000_000, failure));
    }

    /** An id no dispatch and no container can have: nobody knew it until now. */
    public String unknownId() {
        return "warm-up-" + UUID.randomUUID();
    }

    /** What is left until the warm-up's deadline: the most any one of its store statements may take. */
    public Duration timeLeft() {
        Duration left = Duration.between(clock.instant(), deadline);
        return left.isNegative() ? Duration.ZERO : left;
    }

    private synchronized void record(Step step) {
        steps.add(step);
    }

    public synchronized List<Step> steps() {
        return List.copyOf(steps);
    }
}
