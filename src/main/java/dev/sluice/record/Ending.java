package dev.sluice.record;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

import dev.sluice.artifact.Artifacts;
import dev.sluice.output.CapturedOutput;
import dev.sluice.report.ReportReading;
import dev.sluice.summary.WorkerSummary;

/**
 * How a dispatch ended: what its {@link DispatchResult} and listing summary are
 * built from, by the {@code run.Finisher} alone. Made with {@link #of}, part by
 * part: how it ended, what it printed, what the agent handed over; a part left
 * unsaid is the one of a dispatch that never ran.
 *
 * @param workerSummary a generated summary of the output, when a summarizer made one
 * @param imageDigest   the content digest of the image that ran, once it resolved (ADR 0059); else null
 * @param attempts      which attempt ended, and how the earlier ones did (ADR 0066)
 */
public record Ending(
        String id,
        DispatchSpec spec,
        Outcome outcome,
        Output output,
        Handover handover,
        WorkerSummary workerSummary,
        String imageDigest,
        Attempts attempts) {

    /**
     * How it ended, and when.
     *
     * @param startedAt {@code null} when the dispatch never ran
     * @param runtime   the engine's runtime its container ran under; {@code null} when none ran or the engine did
     *                  not say
     */
    public record Outcome(
            Dispatch.Status status,
            Integer exitCode,
            DispatchResult.Error error,
            Instant startedAt,
            Instant finishedAt,
            String runtime) {}

    /**
     * What the dispatch printed, as captured.
     *
     * @param availableFrom the first byte of each stream the runtime still holds; null when unknown (ADR 0032)
     * @param recovered     the output was read back from the runtime's log rather than captured live
     * @param nonce         the dispatch's marker nonce; {@code null} when its output was never read
     */
    public record Output(
            CapturedOutput stdout,
            CapturedOutput stderr,
            DispatchResult.AvailableFrom availableFrom,
            boolean recovered,
            String nonce) {

        /** Nothing printed: the runtime holds all of nothing. */
        public static final Output NONE =
                new Output(CapturedOutput.EMPTY, CapturedOutput.EMPTY, DispatchResult.AvailableFrom.WHOLE, false, null);

        /** Nothing read, nor counted: what the runtime still holds cannot be placed. */
        public static final Output UNCOUNTED =
                new Output(CapturedOutput.EMPTY, CapturedOutput.EMPTY, null, false, null);

        /** Output captured live and counted whole, as the warm-up's. */
        public static Output captured(CapturedOutput stdout, CapturedOutput stderr, String nonce) {
            return new Output(stdout, stderr, DispatchResult.AvailableFrom.WHOLE, false, nonce);
        }
    }

    /**
     * What the agent handed over.
     *
     * @param report    what the worker made of the agent's report
     * @param artifacts what the worker kept of the agent's artifacts directory
     */
    public record Handover(ReportReading report, Artifacts artifacts) {

        public static final Handover NONE = new Handover(ReportReading.MISSING, Artifacts.NONE);
    }

    /** The ending of dispatch {@code id}, built part by part. */
    public static Builder of(String id, DispatchSpec spec) {
        return new Builder(id, spec);
    }

    /** A dispatch that ended without running (cancelled while queued, refused by the runtime, lost). */
    public static Ending withoutOutput(
            String id, DispatchSpec spec, Dispatch.Status status, DispatchResult.Error error, Instant finishedAt) {
        return of(id, spec).ended(status, null, error).ran(null, finishedAt).build();
    }

    /** This ending, of the image with content digest {@code digest} (null when it has none). */
    public Ending withImageDigest(String digest) {
        return new Ending(id, spec, outcome, output, handover, workerSummary, digest, attempts);
    }

    public Ending withSummary(WorkerSummary summary) {
        return new Ending(id, spec, outcome, output, handover, summary, imageDigest, attempts);
    }

    /** This ending, of the attempt {@code attempts} names. */
    public Ending withAttempts(Attempts attempts) {
        return new Ending(id, spec, outcome, output, handover, workerSummary, imageDigest, attempts);
    }

    /** Builds an {@link Ending}; the output and the handover are none unless given. */
    public static final class Builder {

        private final String id;
        private final DispatchSpec spec;
        private Dispatch.Status status;
        private Integer exitCode;
        private DispatchResult.Error error;
        private Instant startedAt;
        private Instant finishedAt;
        private String runtime;
        private Output output = Output.NONE;
        private Handover handover = Handover.NONE;

        private Builder(String id, DispatchSpec spec) {
            this.id = Objects.requireNonNull(id);
            this.spec = Objects.requireNonNull(spec);
        }

        /** Its status, the exit code it reports (null when none), and why, when not by the process's exit alone. */
        public Builder ended(Dispatch.Status status, Integer exitCode, DispatchResult.Error error) {
            this.status = status;
            this.exitCode = exitCode;
            this.error = error;
            return this;
        }

        /** When it ran: {@code startedAt} is null when it never did. */
        public Builder ran(Instant startedAt, Instant finishedAt) {
            this.startedAt = startedAt;
            this.finishedAt = finishedAt;
            return this;
        }

        /** The engine's runtime its container ran under. */
        public Builder under(String runtime) {
            this.runtime = runtime;
            return this;
        }

        public Builder output(Output output) {
            this.output = output;
            return this;
        }

        public Builder handover(ReportReading report, Artifacts artifacts) {
            this.handover = new Handover(report, artifacts);
            return this;
        }

        public Ending build() {
            Outcome outcome = new Outcome(
                    Objects.requireNonNull(status, "status"),
                    exitCode,
                    error,
                    startedAt,
                    Objects.requireNonNull(finishedAt, "finishedAt"),
                    runtime);
            return new Ending(id, spec, outcome, output, handover, null, null, Attempts.FIRST);
        }
    }

    /** The result with these outputs (the captured ones, or as the callback budget reduced them). */
    DispatchResult result(CapturedOutput stdout, CapturedOutput stderr, List<DispatchResult.Reduction> reductions) {
        Long durationMs = outcome.startedAt() == null
                ? null
                : Duration.between(outcome.startedAt(), outcome.finishedAt()).toMillis();
        DispatchResult.AvailableFrom availableFrom = output.availableFrom();
        return new DispatchResult(
                id,
                DispatchKey.tenantOf(id),
                outcome.status(),
                outcome.exitCode(),
                outcome.error(),
                spec.image(),
                imageDigest,
                outcome.runtime(),
                outcome.startedAt(),
                outcome.finishedAt(),
                durationMs,
                attempts.attempt(),
                attempts.earlier(),
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
                        output.recovered(),
                        availableFrom),
                handover.report().status(),
                handover.report().source(),
                handover.report().detail(),
                handover.report().report(),
                handover.artifacts().kept(),
                handover.artifacts().refused(),
                workerSummary,
                spec.metadata());
    }

    /**
     * The result within the callback budget, with the listing's summary and the
     * digest made from it: what the store keeps.
     */
    public DispatchTransitions.Closing closing(ResultBudget budget) {
        DispatchResult result = budget.fit(this);
        long stdoutBytes = output.stdout().originalBytes();
        long stderrBytes = output.stderr().originalBytes();
        return new DispatchTransitions.Closing(
                result,
                DispatchSummary.of(result, stdoutBytes, stderrBytes),
                DispatchDigest.of(result, stdoutBytes, stderrBytes));
    }
}
