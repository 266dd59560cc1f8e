package dev.sluice.dispatch;

import java.time.Duration;
import java.time.Instant;

import dev.sluice.artifact.Artifacts;
import dev.sluice.output.CapturedOutput;
import dev.sluice.report.ReportReading;

/**
 * How a dispatch ended: what its {@link DispatchResult} and listing summary are
 * built from, by the {@link Finisher} alone.
 *
 * @param startedAt       {@code null} when the dispatch never ran
 * @param availableFrom   the first byte of each stream the runtime still holds; null when unknown (ADR 0032)
 * @param recovered       the output was read back from the runtime's log rather than captured live
 * @param report          what the worker made of the agent's report
 * @param artifacts       what the worker kept of the agent's artifacts directory
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
        DispatchResult.AvailableFrom availableFrom,
        boolean recovered,
        ReportReading report,
        Artifacts artifacts) {

    /** An ending without artifacts. */
    Ending(
            String id,
            DispatchSpec spec,
            Dispatch.Status status,
            Integer exitCode,
            DispatchResult.Error error,
            Instant startedAt,
            Instant finishedAt,
            CapturedOutput stdout,
            CapturedOutput stderr,
            DispatchResult.AvailableFrom availableFrom,
            boolean recovered,
            ReportReading report) {
        this(
                id,
                spec,
                status,
                exitCode,
                error,
                startedAt,
                finishedAt,
                stdout,
                stderr,
                availableFrom,
                recovered,
                report,
                Artifacts.NONE);
    }

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
                DispatchResult.AvailableFrom.WHOLE,
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
                new DispatchResult.Logs(
                        DispatchLinks.log(id, "stdout"),
                        DispatchLinks.log(id, "stderr"),
                        availableFrom == null || !availableFrom.whole(),
                        recovered,
                        availableFrom),
                report.status(),
                report.source(),
                report.detail(),
                report.report(),
                artifacts.kept(),
                artifacts.refused(),
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
