package dev.sluice.run;

import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Acts on cancels another replica recorded (ADR 0065). A {@code DELETE} that
 * reaches a replica which does not run the dispatch can only note it in the
 * store; the replica running it finds the note here, every
 * {@code sluice.dispatch.tick}, and stops the dispatch the way a cancel sent
 * to it does: {@link Execution#stop}, which is idempotent, so a dispatch still
 * stopping when the next poll comes is left to its stop.
 */
final class RemoteCancels {

    private final Supplier<Iterable<String>> requested;
    private final Function<String, Optional<Execution>> executions;

    /**
     * @param requested  keys of this worker's unfinished dispatches whose cancel was requested
     * @param executions this worker's execution of a dispatch, if it runs it
     */
    RemoteCancels(Supplier<Iterable<String>> requested, Function<String, Optional<Execution>> executions) {
        this.requested = requested;
        this.executions = executions;
    }

    /** Stops each requested dispatch this worker runs; returns how many were not already being stopped. */
    int poll() {
        int asked = 0;
        for (String id : requested.get()) {
            Optional<Execution> execution = executions.apply(id);
            if (execution.isPresent()) {
                asked += execution.get().stopReason() == null ? 1 : 0;
                execution.get().stop(Execution.StopReason.CANCEL);
            }
        }
        return asked;
    }
}
