package dev.sluice.dispatch;

import java.time.Duration;
import java.time.Instant;

import dev.sluice.output.CapturedOutput;

/** Builds the {@link DispatchResult} of a dispatch, and its listing summary, in one place. */
final class Results {

    private Results() {
    }

    /** A stream that printed nothing. */
    static final CapturedOutput EMPTY = new CapturedOutput("", 0, null);

    /** A result and the summary stored beside it. */
    record Finished(DispatchResult result, DispatchSummary summary) {
    }

    static Finished of(String id, DispatchSpec spec, Dispatch.Status status, Integer exitCode,
            DispatchResult.Error error, Instant startedAt, Instant finishedAt, CapturedOutput stdout,
            CapturedOutput stderr, boolean possiblyRotated, boolean recovered) {
        Long durationMs = startedAt == null ? null : Duration.between(startedAt, finishedAt).toMillis();
        DispatchResult result = new DispatchResult(id, status, exitCode, error, spec.image(), startedAt, finishedAt,
                durationMs, stdout.text(), stderr.text(), stdout.overflow(), stderr.overflow(),
                new DispatchResult.Logs(DispatchLinks.log(id, "stdout"), DispatchLinks.log(id, "stderr"),
                        possiblyRotated, recovered),
                spec.metadata());
        return new Finished(result, DispatchSummary.of(result, stdout.originalBytes(), stderr.originalBytes()));
    }

    /** A dispatch that ended without running (cancelled while queued, or refused by the runtime). */
    static Finished withoutOutput(String id, DispatchSpec spec, Dispatch.Status status, DispatchResult.Error error,
            Instant finishedAt) {
        return of(id, spec, status, null, error, null, finishedAt, EMPTY, EMPTY, false, false);
    }
}
