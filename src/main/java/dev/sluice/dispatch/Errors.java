package dev.sluice.dispatch;

import dev.sluice.container.ContainerException;

/** The errors a result can carry: stable codes for programs, messages for people. */
final class Errors {

    private Errors() {}

    static final DispatchResult.Error SECRETS_UNAVAILABLE = new DispatchResult.Error(
            "secrets_unavailable",
            "the worker restarted while holding this dispatch, and secret values are never stored: it could not be "
                    + "run, or its output could not be masked");

    static final DispatchResult.Error CONTAINER_LOST = new DispatchResult.Error(
            "container_lost",
            "the container of this dispatch is gone from the engine (the engine restarted or it was removed)");

    static final DispatchResult.Error WORKER_LOST = new DispatchResult.Error(
            "worker_lost",
            "the worker running this dispatch stopped renewing its lease; its container ran on that worker's engine");

    static final DispatchResult.Error QUEUE_TIMEOUT = new DispatchResult.Error(
            "queue_timeout", "the dispatch waited in the queue past the worker's limit without starting");

    static final DispatchResult.Error WORKER_ERROR =
            new DispatchResult.Error("worker_error", "the worker failed while running this dispatch");

    static final DispatchResult.Error IDLE = new DispatchResult.Error(
            "idle", "the container printed nothing on either stream for its idleTimeout, and was stopped");

    static final DispatchResult.Error OUT_OF_MEMORY =
            new DispatchResult.Error("out_of_memory", "the container was killed for exceeding its memory limit");

    /** What the engine refused or failed at, in the engine's own short words. */
    static DispatchResult.Error of(ContainerException e) {
        return new DispatchResult.Error(e.reason().code(), e.getMessage());
    }
}
