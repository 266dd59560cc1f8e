package dev.sluice.dispatch;

import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

import dev.sluice.output.CapturedOutput;
import dev.sluice.report.ReportReading;
import dev.sluice.worker.CrashPoint;

/**
 * The one way a dispatch ends, whichever flow ends it (the runner, a cancel,
 * the queue's expiry, reconciliation, the sweep of lost workers): build its
 * result, store it with its outbox row in one transaction, and announce it
 * once. A terminal state is never overwritten, so of two flows that end the
 * same dispatch only the first stores and announces.
 */
final class Finisher {

    private final DispatchTransitions transitions;
    private final Outbox outbox;
    private final Consumer<DispatchFinished> announce;

    Finisher(DispatchTransitions transitions, Outbox outbox, Consumer<DispatchFinished> announce) {
        this.transitions = transitions;
        this.outbox = outbox;
        this.announce = announce;
    }

    /** Ends a dispatch in any non-terminal state; false when it had already ended. */
    boolean finish(Ending ending) {
        return finishWhere(ending, DispatchTransitions.From.ANY_UNFINISHED);
    }

    /** Ends a dispatch that is still queued; false when it has left the queue (or ended) meanwhile. */
    boolean finishQueued(Ending ending) {
        return finishWhere(ending, DispatchTransitions.From.QUEUED);
    }

    private boolean finishWhere(Ending ending, DispatchTransitions.From from) {
        DispatchTransitions.Closing closing = ending.closing();
        if (!transitions.finish(closing, from, outbox)) {
            return false;
        }
        CrashPoint.AFTER_STORE.reached();
        announce.accept(new DispatchFinished(ending.id(), ending.status()));
        return true;
    }

    /**
     * Closes up to {@code limit} unfinished dispatches of workers whose lease
     * lapsed before {@code now} as {@code worker_lost}; returns their ids.
     */
    List<String> closeLost(String me, Instant now, int limit) {
        List<DispatchResult> closed = transitions.closeLost(me, now, limit, outbox, lost -> {
            Ending ending = new Ending(
                    lost.id(),
                    lost.spec(),
                    Dispatch.Status.ERROR,
                    null,
                    Errors.WORKER_LOST,
                    lost.startedAt(),
                    now,
                    CapturedOutput.EMPTY,
                    CapturedOutput.EMPTY,
                    false,
                    false,
                    ReportReading.MISSING);
            return ending.closing();
        });
        closed.forEach(result -> announce.accept(new DispatchFinished(result.dispatchId(), result.status())));
        return closed.stream().map(DispatchResult::dispatchId).toList();
    }
}
