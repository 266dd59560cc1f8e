package dev.sluice.record;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.sluice.artifact.Artifacts;
import dev.sluice.output.CapturedOutput;
import dev.sluice.report.ReportReading;
import dev.sluice.summary.WorkerSummary;

/**
 * How a dispatch ended: what its {@link DispatchResult} and listing summary are
 * built from, by the {@code run.Finisher} alone.
 *
 * @param startedAt       {@code null} when the dispatch never ran
 * @param availableFrom   the first byte of each stream the runtime still holds; null when unknown (ADR 0032)
 * @param recovered       the output was read back from the runtime's log rather than captured live
 * @param report          what the worker made of the agent's report
 * @param artifacts       what the worker kept of the agent's artifacts directory
 * @param nonce           the dispatch's marker nonce; {@code null} when its output was never read
 * @param workerSummary   a generated summary of the output, when a summarizer made one
 */
public record Ending(
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
        Artifacts artifacts,
        String nonce,
        WorkerSummary workerSummary) {

    /** A dispatch that ended without running (cancelled while queued, refused by the runtime, lost). */
    public static Ending withoutOutput(
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
                ReportReading.MISSING,
                Artifacts.NONE,
                null,
                null);
    }

    public Ending withSummary(WorkerSummary summary) {
        return new Ending(
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
                artifacts,
                nonce,
                summary);
    }

    /** The result with these outputs (the captured ones, or as the callback budget reduced them). */
    DispatchResult result(CapturedOutput stdout, CapturedOutput stderr, List<DispatchResult.Reduction> reductions) {
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
                reductions,
                stdout.digest(),
                stderr.digest(),
                stdout.witness(),
                stderr.witness(),
                stdout.tokens(),
                stderr.tokens(),
                stdout.format(),
                stderr.format(),
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
                workerSummary,
                spec.metadata());
    }

    /**
     * The result within the callback budget, with the listing's summary and the
     * digest made from it: what the store keeps.
     */
    public DispatchTransitions.Closing closing(ResultBudget budget) {
        DispatchResult result = budget.fit(this);
        return new DispatchTransitions.Closing(
                result,
                DispatchSummary.of(result, stdout.originalBytes(), stderr.originalBytes()),
                DispatchDigest.of(result, stdout.originalBytes(), stderr.originalBytes()));
    }
}
