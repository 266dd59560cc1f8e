package dev.sluice.container;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

import dev.sluice.concurrent.LogScope;
import dev.sluice.container.engine.ContainerException;

/**
 * The one way a container is stopped, whatever the reason (timeout, cancel, a
 * dispatch that cannot be taken over): SIGTERM, so the agent can finish its
 * answer, then SIGKILL once the grace period is over. Both signals are
 * idempotent: a container that is gone or has stopped counts as signalled.
 */
public final class ContainerStopper {

    private static final Logger LOG = Logger.getLogger(ContainerStopper.class);

    private final ContainerRuntime runtime;
    private final ScheduledExecutorService timer;
    private final Duration grace;

    public ContainerStopper(ContainerRuntime runtime, ScheduledExecutorService timer, Duration grace) {
        this.runtime = runtime;
        this.timer = timer;
        this.grace = grace;
    }

    /** Sends SIGTERM now and SIGKILL after the grace period; returns at once. */
    public void stop(String containerId) {
        signal(containerId, "SIGTERM");
        timer.schedule(LogScope.carried(() -> signal(containerId, "SIGKILL")), grace.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void signal(String containerId, String signal) {
        try {
            runtime.signal(containerId, signal);
        } catch (ContainerException e) {
            LOG.warnf("container %s: %s failed: %s", containerId, signal, e.getMessage());
        }
    }
}
