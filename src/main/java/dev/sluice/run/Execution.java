package dev.sluice.run;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import dev.sluice.concurrent.LogScope;
import dev.sluice.record.Dispatch;

/**
 * One dispatch in flight: its container and, once asked, why it is being
 * stopped. Timeout, idle timeout and cancel share one stop path, the
 * container's ({@code ContainerStopper}: SIGTERM, a grace period, SIGKILL).
 * The first reason given wins.
 */
final class Execution {

    /** Why a dispatch is being stopped; decides its terminal status. */
    enum StopReason {
        TIMEOUT(Dispatch.Status.TIMED_OUT),
        /** It printed nothing for its {@code idleTimeout}. */
        IDLE(Dispatch.Status.TIMED_OUT),
        CANCEL(Dispatch.Status.CANCELLED);

        final Dispatch.Status status;

        StopReason(Dispatch.Status status) {
            this.status = status;
        }
    }

    private final String dispatchId;
    private final Consumer<String> stopContainer;
    private final ScheduledExecutorService timer;
    private final AtomicReference<StopReason> stopReason = new AtomicReference<>();
    private volatile String containerId;
    private volatile boolean started;
    private volatile ScheduledFuture<?> deadline;
    private volatile ScheduledFuture<?> idleCheck;
    private volatile boolean finished;
    /** The content digest of the image it runs, once resolved (ADR 0059); null before, or when there is none. */
    private volatile String imageDigest;

    /**
     * @param stopContainer stops a container by id, returning at once
     * @param timer         arms the timeout
     */
    Execution(String dispatchId, Consumer<String> stopContainer, ScheduledExecutorService timer) {
        this.dispatchId = dispatchId;
        this.stopContainer = stopContainer;
        this.timer = timer;
    }

    String dispatchId() {
        return dispatchId;
    }

    void containerCreated(String id) {
        this.containerId = id;
    }

    StopReason stopReason() {
        return stopReason.get();
    }

    /** Arms the timeout once the container runs. */
    /** Its image resolved to this content digest (null: the engine holds none for it). */
    void imageResolved(String digest) {
        this.imageDigest = digest;
    }

    String imageDigest() {
        return imageDigest;
    }

    void started(Duration timeout) {
        started = true;
        deadline = timer.schedule(
                LogScope.wrap(dispatchId, () -> stop(StopReason.TIMEOUT)), timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (stopReason.get() != null) {
            // Cancelled between start and arming: stop now.
            stopContainer();
        }
    }

    /**
     * Stops the dispatch once it has printed nothing for the watch's limit. The
     * check sleeps until the earliest moment that could be, and looks again:
     * one timer task per dispatch, however much it prints.
     */
    void watchIdle(IdleWatch watch) {
        watch.start();
        scheduleIdleCheck(watch, watch.limit());
    }

    private void scheduleIdleCheck(IdleWatch watch, Duration in) {
        if (finished) {
            return;
        }
        idleCheck =
                timer.schedule(LogScope.wrap(dispatchId, () -> checkIdle(watch)), in.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void checkIdle(IdleWatch watch) {
        if (finished) {
            return;
        }
        Duration left = watch.untilIdle();
        if (left.isNegative() || left.isZero()) {
            stop(StopReason.IDLE);
        } else {
            scheduleIdleCheck(watch, left);
        }
    }

    /**
     * Asks the dispatch to stop. Before the container runs this only records
     * the reason (the runner checks it before starting); after, it signals.
     */
    void stop(StopReason reason) {
        if (stopReason.compareAndSet(null, reason) && started) {
            stopContainer();
        }
    }

    private void stopContainer() {
        String id = containerId;
        if (id != null) {
            stopContainer.accept(id);
        }
    }

    /** Disarms the timeout and the idle check once the container has exited. */
    void finished() {
        finished = true;
        cancel(deadline);
        cancel(idleCheck);
    }

    private static void cancel(ScheduledFuture<?> task) {
        if (task != null) {
            task.cancel(false);
        }
    }
}
