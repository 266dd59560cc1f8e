package dev.sluice.run;

import java.time.Clock;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchQueries;
import dev.sluice.record.DispatchSpec;
import dev.sluice.record.DispatchStore;
import dev.sluice.record.DispatchTransitions;
import dev.sluice.record.Ending;

/**
 * Cancels dispatches, idempotently: a finished dispatch is left as it is; a
 * queued one ends at once; one that has left the queue is stopped, and ends
 * {@code cancelled} when its container has exited.
 */
@Singleton
public class Cancellation {

    /** The dispatch after a cancel, and whether it is still being stopped. */
    public record Cancelled(Dispatch dispatch, boolean stopping) {}

    private final DispatchQueries queries;
    private final DispatchStore store;
    private final DispatchTransitions transitions;
    private final DispatchScheduler scheduler;
    private final Finisher finisher;
    private final Clock clock;

    @Inject
    Cancellation(
            DispatchQueries queries,
            DispatchStore store,
            DispatchTransitions transitions,
            DispatchScheduler scheduler,
            Finisher finisher,
            Clock clock) {
        this.queries = queries;
        this.store = store;
        this.transitions = transitions;
        this.scheduler = scheduler;
        this.finisher = finisher;
        this.clock = clock;
    }

    public Cancelled cancel(String id) {
        Dispatch dispatch = queries.get(id);
        if (dispatch.status().terminal()) {
            return new Cancelled(dispatch, false);
        }
        if (dispatch.status() == Dispatch.Status.QUEUED && cancelQueued(dispatch)) {
            return new Cancelled(queries.get(id), false);
        }
        transitions.requestCancel(id);
        scheduler.execution(id).ifPresent(e -> e.stop(Execution.StopReason.CANCEL));
        return new Cancelled(queries.get(id), true);
    }

    /** False when it left the queue meanwhile: then it is stopped like a running one. */
    private boolean cancelQueued(Dispatch dispatch) {
        scheduler.dequeue(dispatch.id());
        DispatchSpec spec = store.spec(dispatch.id()).orElseThrow();
        return finisher.finishQueued(
                Ending.withoutOutput(dispatch.id(), spec, Dispatch.Status.CANCELLED, null, clock.instant()));
    }
}
