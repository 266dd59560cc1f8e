package dev.sluice.dispatch;

import java.time.Duration;
import java.time.Instant;

import dev.sluice.output.CapturedOutput;
import dev.sluice.report.ReportReading;

/**
 * How a dispatch ended: what its {@link DispatchResult} and listing summary are
 * built from, by the {@link Finisher} alone.
 *
 * @param startedAt       {@code null} when the dispatch never ran
 * @param possiblyRotated the runtime's log rotation may have dropped the oldest part of the streams
 * @param recovered       the output was read back from the runtime's log rather than captured live
 * @param report          what the worker made of the agent's report
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
        boolean recovered,
        ReportReading report) {

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
                false,
                ReportReading.MISSING);
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
                stdout.tokens(),
                stderr.tokens(),
                stdout.format(),
                stderr.format(),
                new DispatchResult.Logs(
                        DispatchLinks.log(id, "stdout"), DispatchLinks.log(id, "stderr"), possiblyRotated, recovered),
                report.status(),
                report.source(),
                report.detail(),
                report.report(),
                spec.metadata());
    }

    /** The result, with the listing's summary and the digest made from it: what the store keeps. */
    DispatchTransitions.Closing closing() {
        DispatchResult result = result();
        return new DispatchTransitions.Closing(
                result,
                DispatchSummary.of(result, stdout.originalBytes(), stderr.originalBytes()),
                DispatchDigest.of(result, stdout.originalBytes(), stderr.originalBytes()));
    }
}
