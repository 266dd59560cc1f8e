package dev.sluice.dispatch;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import dev.sluice.concurrent.LogScope;

/**
 * One dispatch in flight: its container and, once asked, why it is being
 * stopped. Timeout and cancel share one stop path, the container's
 * ({@code ContainerStopper}: SIGTERM, a grace period, SIGKILL). The first
 * reason given wins.
 */
final class Execution {

    /** Why a dispatch is being stopped; decides its terminal status. */
    enum StopReason {
        TIMEOUT(Dispatch.Status.TIMED_OUT),
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

    /** Disarms the timeout once the container has exited. */
    void finished() {
        ScheduledFuture<?> d = deadline;
        if (d != null) {
            d.cancel(false);
        }
    }
}
