package dev.sluice.worker;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.locks.ReentrantLock;

import org.jboss.logging.Logger;

/**
 * Whether this worker has taken up what a previous instance of it left: the
 * fact the startup probe reads (ADR 0067). The first pass runs on a thread of
 * its own, so the probes answer (DOWN, saying why) while it runs; a pass that
 * throws is retried by every later one until one completes, each taking up
 * everything created before this instance started. Passes never overlap: one
 * that finds another running is skipped.
 */
public final class Reconciliation {

    private static final Logger LOG = Logger.getLogger(Reconciliation.class);
    private static final int MAX_PROBLEM = 300;

    /**
     * How far the first pass has come.
     *
     * @param done     a pass over this worker's own dispatches completed
     * @param running  a pass is under way
     * @param attempts passes begun so far
     * @param problem  why the last pass failed, or {@code null}
     */
    public record Progress(boolean done, boolean running, int attempts, String problem) {}

    private final Reconciler reconciler;
    private final Clock clock;
    private final Duration delay;
    private final ReentrantLock passes = new ReentrantLock();
    private volatile Instant startedAt;
    private volatile Progress progress = new Progress(false, false, 0, null);

    /** @param delay how long each pass waits before it begins until one completes: zero but in tests ({@link #testDelay}) */
    Reconciliation(Reconciler reconciler, Clock clock, Duration delay) {
        this.reconciler = reconciler;
        this.clock = clock;
        this.delay = delay;
        this.startedAt = clock.instant();
    }

    public Progress progress() {
        return progress;
    }

    /** This instance starts now: whatever its worker owns that was created before is a previous instance's. */
    void started() {
        startedAt = clock.instant();
    }

    /**
     * One pass over this worker's dispatches, then over lost workers'; false
     * when another pass was running. Never throws: a failure is kept for the
     * probe and logged, and the next pass tries again.
     */
    boolean pass() {
        if (!passes.tryLock()) {
            return false;
        }
        try {
            Progress before = progress;
            progress = new Progress(before.done(), true, before.attempts() + 1, before.problem());
            if (!before.done()) {
                pause();
            }
            reconciler.reconcileOwn(startedAt);
            progress = new Progress(true, false, progress.attempts(), null);
        } catch (RuntimeException e) {
            String problem = describe(e);
            progress = new Progress(progress.done(), false, progress.attempts(), problem);
            LOG.warnf("reconciliation failed, tried again at the next pass: %s", problem);
        } finally {
            passes.unlock();
        }
        sweepLost();
        return true;
    }

    private void sweepLost() {
        try {
            reconciler.sweepLost();
        } catch (RuntimeException e) {
            LOG.warnf("closing lost workers' dispatches failed: %s", describe(e));
        }
    }

    private void pause() {
        if (delay.isZero()) {
            return;
        }
        try {
            Thread.sleep(delay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }

    /** The failure and its root cause: "store: ... failed" alone does not tell an operator what to mend. */
    private static String describe(RuntimeException e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = message(e) + (root == e ? "" : ": " + message(root));
        return text.length() <= MAX_PROBLEM ? text : text.substring(0, MAX_PROBLEM) + "...";
    }

    private static String message(Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /**
     * A pause before each pass, so that a test can watch the startup probe while
     * reconciliation runs. Zero unless {@code sluice.chaos.reconcile-delay} (or
     * {@code SLUICE_CHAOS_RECONCILE_DELAY}) says otherwise, as an ISO-8601
     * duration or seconds ({@code 8s}). For testing only, like {@link CrashPoint}.
     */
    static Duration testDelay() {
        String value =
                System.getProperty("sluice.chaos.reconcile-delay", System.getenv("SLUICE_CHAOS_RECONCILE_DELAY"));
        if (value == null || value.isBlank()) {
            return Duration.ZERO;
        }
        String v = value.strip();
        Duration delay = v.startsWith("P") ? Duration.parse(v) : Duration.ofSeconds(Long.parseLong(v.replace("s", "")));
        LOG.warnf("CHAOS: every reconciliation pass waits %s before it begins", delay);
        return delay;
    }
}
