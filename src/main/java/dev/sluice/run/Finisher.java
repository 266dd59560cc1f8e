package dev.sluice.run;

import java.time.Instant;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

import dev.sluice.concurrent.LogScope;
import dev.sluice.output.CapturedOutput;
import dev.sluice.output.Overflow;
import dev.sluice.output.Utf8Text;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchFinished;
import dev.sluice.record.DispatchResult;
import dev.sluice.record.DispatchTransitions;
import dev.sluice.record.Ending;
import dev.sluice.record.Outbox;
import dev.sluice.record.ResultBudget;
import dev.sluice.trace.Phase;
import dev.sluice.trace.SpanNames;
import dev.sluice.trace.Tracing;
import dev.sluice.worker.CrashPoint;

/**
 * The one way a dispatch ends, whichever flow ends it (the runner, a cancel,
 * the queue's expiry, reconciliation, the sweep of lost workers): build its
 * result, store it with its outbox row in one transaction, and announce it
 * once. A terminal state is never overwritten, so of two flows that end the
 * same dispatch only the first stores and announces, and logs how it ended.
 */
final class Finisher {

    private static final Logger LOG = Logger.getLogger(Finisher.class);

    private final DispatchTransitions transitions;
    private final Outbox outbox;
    private final Consumer<DispatchFinished> announce;
    private final ResultBudget budget;
    private final Summaries summaries;
    private final Tracing tracing;

    Finisher(
            DispatchTransitions transitions,
            Outbox outbox,
            Consumer<DispatchFinished> announce,
            ResultBudget budget,
            Summaries summaries,
            Tracing tracing) {
        this.transitions = transitions;
        this.outbox = outbox;
        this.announce = announce;
        this.budget = budget;
        this.summaries = summaries;
        this.tracing = tracing;
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
        // A span where the dispatch's trace is current: every ending of the runner, which continues it.
        try (LogScope scope = LogScope.dispatch(ending.id());
                Phase span = tracing.withinTrace(SpanNames.FINISH)) {
            // Before the store is touched: a summary may take up to the summarizer's timeout.
            DispatchTransitions.Closing closing = summaries
                    .add(ending.withAttempts(transitions.attempts(ending.id())))
                    .closing(budget);
            described(span, closing.result());
            if (!transitions.finish(closing, from, outbox)) {
                span.failed("already ended");
                return false;
            }
            CrashPoint.AFTER_STORE.reached();
            ended(closing.result(), ending.output().stdout(), ending.output().stderr());
            return true;
        }
    }

    /** What the trace shows of how it ended: never its output, only how much of it was kept. */
    private static void described(Phase span, DispatchResult result) {
        span.attribute(SpanNames.STATUS, result.status().wire()).attribute(SpanNames.ATTEMPT, result.attempt());
        if (result.exitCode() != null) {
            span.attribute(SpanNames.EXIT_CODE, result.exitCode());
        }
        if (result.error() != null) {
            span.attribute(SpanNames.ERROR_CODE, result.error().code());
        }
        span.attribute(SpanNames.STDOUT_KEPT, kept(result.stdout(), result.stdoutOverflow()))
                .attribute(SpanNames.STDOUT_DROPPED, dropped(result.stdoutOverflow()))
                .attribute(SpanNames.STDERR_KEPT, kept(result.stderr(), result.stderrOverflow()))
                .attribute(SpanNames.STDERR_DROPPED, dropped(result.stderrOverflow()));
    }

    private static long kept(Utf8Text text, Overflow overflow) {
        return overflow != null ? overflow.keptBytes() : text == null ? 0 : text.length();
    }

    private static long dropped(Overflow overflow) {
        return overflow == null ? 0 : overflow.droppedBytes();
    }

    private void ended(DispatchResult result, CapturedOutput stdout, CapturedOutput stderr) {
        LOG.info(outcome(result));
        announce.accept(DispatchFinished.of(result, stdout, stderr));
    }

    /** "ended failed (out_of_memory), exit code 137, 5012 ms": what an operator looks for first. */
    private static String outcome(DispatchResult result) {
        StringBuilder line = new StringBuilder("ended ").append(result.status().wire());
        if (result.error() != null) {
            line.append(" (").append(result.error().code()).append(')');
        }
        if (result.exitCode() != null) {
            line.append(", exit code ").append(result.exitCode());
        }
        if (result.durationMs() != null) {
            line.append(", ").append(result.durationMs()).append(" ms");
        }
        return line.toString();
    }

    /**
     * Closes up to {@code limit} unfinished dispatches of workers whose lease
     * lapsed before {@code now} as {@code worker_lost}, but for those whose
     * request allows another attempt: they wait in the queue again (ADR 0066).
     */
    DispatchTransitions.Swept closeLost(String me, Instant now, int limit) {
        DispatchTransitions.Swept swept = transitions.closeLost(me, now, limit, outbox, Errors.WORKER_LOST, lost -> {
            Ending ending = Ending.of(lost.id(), lost.spec())
                    .ended(Dispatch.Status.ERROR, null, Errors.WORKER_LOST)
                    .ran(lost.startedAt(), now)
                    // Its output was never counted, so what the runtime still holds cannot be placed.
                    .output(Ending.Output.UNCOUNTED)
                    .build()
                    .withAttempts(lost.attempts());
            return ending.closing(budget);
        });
        swept.closed().forEach(result -> {
            try (LogScope scope = LogScope.dispatch(result.dispatchId())) {
                ended(result, CapturedOutput.EMPTY, CapturedOutput.EMPTY);
            }
        });
        return swept;
    }
}
