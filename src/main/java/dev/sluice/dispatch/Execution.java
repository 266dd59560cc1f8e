package dev.sluice.dispatch;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.jboss.logging.Logger;

import dev.sluice.container.ContainerException;
import dev.sluice.container.ContainerRuntime;

/**
 * One dispatch in flight: its container and, once asked, why it is being
 * stopped. Timeout and cancel share one stop path: SIGTERM, a grace period,
 * then SIGKILL. The first reason given wins.
 */
final class Execution {

    private static final Logger LOG = Logger.getLogger(Execution.class);

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
    private final AtomicReference<StopReason> stopReason = new AtomicReference<>();
    private volatile String containerId;
    private volatile boolean started;
    private volatile ScheduledFuture<?> deadline;

    Execution(String dispatchId) {
        this.dispatchId = dispatchId;
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
    void started(ScheduledExecutorService timer, long timeoutMillis, ContainerRuntime runtime, long graceMillis) {
        started = true;
        deadline = timer.schedule(() -> stop(StopReason.TIMEOUT, timer, runtime, graceMillis), timeoutMillis,
                TimeUnit.MILLISECONDS);
        if (stopReason.get() != null) {
            // Cancelled between start and arming: stop now.
            signalStop(timer, runtime, graceMillis);
        }
    }

    /**
     * Asks the dispatch to stop. Before the container runs this only records
     * the reason (the runner checks it before starting); after, it signals.
     */
    void stop(StopReason reason, ScheduledExecutorService timer, ContainerRuntime runtime, long graceMillis) {
        if (stopReason.compareAndSet(null, reason) && started) {
            signalStop(timer, runtime, graceMillis);
        }
    }

    private void signalStop(ScheduledExecutorService timer, ContainerRuntime runtime, long graceMillis) {
        String id = containerId;
        if (id == null) {
            return;
        }
        signal(runtime, id, "SIGTERM");
        timer.schedule(() -> signal(runtime, id, "SIGKILL"), graceMillis, TimeUnit.MILLISECONDS);
    }

    private void signal(ContainerRuntime runtime, String id, String signal) {
        try {
            runtime.signal(id, signal);
        } catch (ContainerException e) {
            LOG.warnf("dispatch %s: %s failed: %s", dispatchId, signal, e.getMessage());
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
