package dev.sluice.dispatch;

import java.time.Duration;
import java.time.Instant;

import dev.sluice.output.CapturedOutput;

/**
 * How a dispatch ended: what its {@link DispatchResult} and listing summary are
 * built from, by the {@link Finisher} alone.
 *
 * @param startedAt       {@code null} when the dispatch never ran
 * @param possiblyRotated the runtime's log rotation may have dropped the oldest part of the streams
 * @param recovered       the output was read back from the runtime's log rather than captured live
 */
record Ending(
        String id,
        DispatchSpec spec,
        Dispatch.Status status,
        Integer exitCode,
        DispatchResult.Error error,
        Instant startedAt,
        Instant finishedAt,
        CapturedOutput stdout,
        CapturedOutput stderr,
        boolean possiblyRotated,
        boolean recovered) {

    /** A dispatch that ended without running (cancelled while queued, refused by the runtime, lost). */
    static Ending withoutOutput(
            String id, DispatchSpec spec, Dispatch.Status status, DispatchResult.Error error, Instant finishedAt) {
        return new Ending(
                id,
                spec,
                status,
                null,
                error,
                null,
                finishedAt,
                CapturedOutput.EMPTY,
                CapturedOutput.EMPTY,
                false,
                false);
    }

    DispatchResult result() {
        Long durationMs = startedAt == null
                ? null
                : Duration.between(startedAt, finishedAt).toMillis();
        return new DispatchResult(
                id,
                status,
                exitCode,
                error,
                spec.image(),
                startedAt,
                finishedAt,
                durationMs,
                stdout.text(),
                stderr.text(),
                stdout.overflow(),
                stderr.overflow(),
                stdout.digest(),
                stderr.digest(),
                new DispatchResult.Logs(
                        DispatchLinks.log(id, "stdout"), DispatchLinks.log(id, "stderr"), possiblyRotated, recovered),
                spec.metadata());
    }

    DispatchSummary summary(DispatchResult result) {
        return DispatchSummary.of(result, stdout.originalBytes(), stderr.originalBytes());
    }
}
