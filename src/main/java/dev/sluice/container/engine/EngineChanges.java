package dev.sluice.container.engine;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Paces the calls that change the engine's containers, creates, starts and
 * removals (ADR 0016): at most {@code sluice.docker.max-concurrent-changes} in
 * flight, the others waiting their turn in order. A burst of dispatches or a
 * reaper with a backlog then cannot pile onto the engine at once; and when the
 * engine wedges, only that many calls hang in it, while the rest fail their
 * wait without having sent anything.
 *
 * <p>A wait fails when no change in flight has finished for the call timeout:
 * the engine then answers none. A long queue behind an engine that keeps
 * answering is waited out, however long it is: its length is bounded by the
 * worker's slots and the reaper's batch, and failing it would end dispatches
 * {@code docker_unavailable} on an engine that is only busy.
 *
 * <p>Signals are not paced: a stop must not queue behind a burst of creates.
 */
public final class EngineChanges {

    private final Semaphore permits;
    private final int max;
    private final Duration wait;
    /** {@link System#nanoTime()} when a change last finished. */
    private volatile long lastFinished = System.nanoTime();

    /** @param max changes in flight at once; 0 for no limit */
    EngineChanges(int max, Duration wait) {
        this.permits = max > 0 ? new Semaphore(max, true) : null;
        this.max = max;
        this.wait = wait;
    }

    /** Runs {@code change} once a place is free; {@code ENGINE_UNAVAILABLE}, with nothing sent, when none frees in time. */
    public <T> T call(String call, Supplier<T> change) {
        if (permits == null) {
            return change.get();
        }
        try {
            acquire(call);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ContainerException(
                    ContainerException.Reason.ENGINE_UNAVAILABLE, call + ": interrupted; not sent");
        }
        try {
            return change.get();
        } finally {
            lastFinished = System.nanoTime();
            permits.release();
        }
    }

    /** Waits for a place while changes keep finishing; fails once none has finished for the call timeout. */
    private void acquire(String call) throws InterruptedException {
        long began = System.nanoTime();
        while (true) {
            long quietSince = Math.max(lastFinished, began);
            long left = quietSince + wait.toNanos() - System.nanoTime();
            if (left <= 0) {
                throw new ContainerException(
                        ContainerException.Reason.ENGINE_UNAVAILABLE,
                        call + ": none of the " + max + " engine changes in flight finished within "
                                + EngineTimeoutException.readable(wait) + "; not sent");
            }
            if (permits.tryAcquire(left, TimeUnit.NANOSECONDS)) {
                return;
            }
        }
    }

    public void run(String call, Runnable change) {
        call(call, () -> {
            change.run();
            return null;
        });
    }
}
