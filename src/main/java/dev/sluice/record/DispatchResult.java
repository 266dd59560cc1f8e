package dev.sluice.record;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;

import dev.sluice.artifact.Artifact;
import dev.sluice.artifact.ArtifactsRefused;
import dev.sluice.output.FormatOutcome;
import dev.sluice.output.Overflow;
import dev.sluice.output.StreamDigest;
import dev.sluice.output.StreamWitness;
import dev.sluice.output.Utf8Text;
import dev.sluice.report.AgentReport;
import dev.sluice.report.ReportSource;
import dev.sluice.report.ReportStatus;
import dev.sluice.summary.WorkerSummary;

/**
 * The result of a finished dispatch: the body POSTed to the callback and the
 * {@code result} of the record (docs/api.md, section 7). {@code stdout} and
 * {@code stderr} are bounded by their caps; an overflow is present exactly
 * when its stream was truncated. The digests describe each whole stream, and
 * are {@code null} only when the dispatch's output was never read. The token
 * estimates are of the returned strings; the formats are present only for a
 * stream the dispatch asked to capture as JSON Lines or JSON (ADR 0031).
 * {@code report} is what the agent claims, kept apart from everything the
 * worker observed; the three fields before it are the worker's account of how
 * it found the report.
 */
@JsonPropertyOrder({
    "dispatchId",
    "tenant",
    "status",
    "exitCode",
    "error",
    "image",
    "imageDigest",
    "runtime",
    "startedAt",
    "finishedAt",
    "durationMs",
    "attempt",
    "earlierAttempts",
    "stdout",
    "stderr",
    "stdoutOverflow",
    "stderrOverflow",
    "reductions",
    "stdoutDigest",
    "stderrDigest",
    "stdoutWitness",
    "stderrWitness",
    "stdoutTokens",
    "stderrTokens",
    "stdoutFormat",
    "stderrFormat",
    "logs",
    "reportStatus",
    "reportSource",
    "reportDetail",
    "report",
    "artifacts",
    "artifactsRefused",
    "workerSummary",
    "metadata"
})
@Schema(
        name = "DispatchResult",
        description = "The result of a finished dispatch: the record's result and the body of every callback "
                + "attempt (docs/api.md, section 7).")
public record DispatchResult(
        @Schema(required = true, description = "the dispatch's id, as its tenant knows it")
        @JsonSerialize(using = DispatchKey.AsId.class)
        String dispatchId,

        @Schema(
                required = true,
                pattern = DispatchKey.TENANT_PATTERN,
                description = "the tenant the dispatch belongs to: a receiver checks that it is the tenant it "
                        + "expects, as it checks dispatchId (section 8.10); absent only from results stored "
                        + "before results named their tenant",
                examples = "default")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        String tenant,

        @Schema(required = true, description = "the terminal status")
        Dispatch.Status status,

        @Schema(
                required = true,
                nullable = true,
                description = "the container's exit status; null when no exit was seen, -1 when the "
                        + "engine reported none for a container taken over after a restart")
        Integer exitCode,

        @Schema(
                required = true,
                nullable = true,
                description =
                        "null unless something other than the process's own exit ended the " + "dispatch (section 6.1)")
        Error error,

        @Schema(required = true, description = "the image as requested")
        String image,

        @Schema(
                required = true,
                nullable = true,
                pattern = "^sha256:[0-9a-f]{64}$",
                description = "the content digest of the image that ran (or was to run), of the requested "
                        + "repository, also when a tag was asked for; null when the image never resolved, or the "
                        + "engine holds no digest for it (an image loaded by hand) (section 7)")
        String imageDigest,

        @Schema(
                required = true,
                nullable = true,
                description =
                        "the engine's runtime the container ran under (runc, runsc); null when no container " + "ran",
                examples = "runsc")
        String runtime,

        @Schema(required = true, nullable = true, description = "when the container started")
        Instant startedAt,

        @Schema(required = true, description = "when the dispatch ended")
        Instant finishedAt,

        @Schema(required = true, nullable = true, description = "finishedAt - startedAt; null when it never started")
        Long durationMs,

        @Schema(
                required = true,
                minimum = "1",
                description = "which attempt this result is of: 1 unless the request's maxAttempts allowed another "
                        + "after the worker running it was lost (section 2.1.3)")
        int attempt,

        @Schema(
                description =
                        "absent for a first attempt: how each earlier attempt ended, oldest first " + "(section 2.1.3)")
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        List<EarlierAttempt> earlierAttempts,

        @Schema(
                required = true,
                type = SchemaType.STRING,
                implementation = String.class,
                description =
                        "stdout, valid Unicode, at most its cap in UTF-8 bytes, the marker included " + "(section 7.1)")
        @JsonSerialize(using = Utf8TextJson.Serializer.class)
        @JsonDeserialize(using = Utf8TextJson.Deserializer.class)
        Utf8Text stdout,

        @Schema(
                required = true,
                type = SchemaType.STRING,
                implementation = String.class,
                description = "stderr, as stdout")
        @JsonSerialize(using = Utf8TextJson.Serializer.class)
        @JsonDeserialize(using = Utf8TextJson.Deserializer.class)
        Utf8Text stderr,

        @Schema(description = "absent unless stdout was truncated") @JsonInclude(JsonInclude.Include.NON_NULL)
        Overflow stdoutOverflow,

        @Schema(description = "absent unless stderr was truncated") @JsonInclude(JsonInclude.Include.NON_NULL)
        Overflow stderrOverflow,

        @Schema(
                description = "absent unless the result had to fit sluice.callback.max-body: what was removed "
                        + "from the text beside each marker, in the order removed (section 7.9)")
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        List<Reduction> reductions,

        @Schema(
                required = true,
                nullable = true,
                description = "SHA-256, bytes and lines of the whole stdout stream as the logs endpoint serves it; "
                        + "null only when the output was never read (section 7.7)")
        StreamDigest stdoutDigest,

        @Schema(required = true, nullable = true, description = "as stdoutDigest, for stderr")
        StreamDigest stderrDigest,

        @Schema(
                description = "absent only when the output was never read: what the witness in the container "
                        + "counted the process writing to stdout, against what reached the worker; complete, "
                        + "recovered, incomplete or unwitnessed (section 7.12)")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        StreamWitness stdoutWitness,

        @Schema(description = "as stdoutWitness, for stderr") @JsonInclude(JsonInclude.Include.NON_NULL)
        StreamWitness stderrWitness,

        @Schema(
                required = true,
                description = "an estimate of the tokens the returned stdout takes in a model's context: its "
                        + "UTF-8 bytes / 3.5, rounded up; not any model's tokenizer (section 7.11)")
        long stdoutTokens,

        @Schema(required = true, description = "as stdoutTokens, for stderr")
        long stderrTokens,

        @Schema(
                description = "absent unless the dispatch asked for output.format jsonl or json: how stdout was "
                        + "returned, and why it fell back to text if it did (section 7.11)")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        FormatOutcome stdoutFormat,

        @Schema(description = "as stdoutFormat, for stderr and output.stderrFormat")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        FormatOutcome stderrFormat,

        @Schema(required = true) Logs logs,

        @Schema(
                required = true,
                description = "how the worker found the agent's report: present, missing, malformed or truncated "
                        + "(section 7.5)")
        ReportStatus reportStatus,

        @Schema(nullable = true, description = "where the report came from: the file or the last stdout line")
        ReportSource reportSource,

        @Schema(nullable = true, description = "why the report was malformed or what was cut, for people")
        String reportDetail,

        @Schema(
                nullable = true,
                description = "what the agent reported about its own work, bounded; never what the worker observed")
        AgentReport report,

        @Schema(
                required = true,
                description = "the files the agent left under <out-dir>/artifacts/ that the worker kept, each "
                        + "served at its href while retained (section 7.8); empty when there were none")
        List<Artifact> artifacts,

        @Schema(
                description = "absent unless something in the artifacts directory was not kept: how many entries, "
                        + "the first names with the reason, and why the directory was not read whole")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        ArtifactsRefused artifactsRefused,

        @Schema(
                description = "absent unless a summarizer is configured and made one: a generated summary of the "
                        + "kept output, labelled as such (section 7.10)")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        WorkerSummary workerSummary,

        @Schema(required = true, nullable = true, description = "as given in the request")
        Map<String, Object> metadata) {

    /** A result read back without {@code reductions} (none were made) has none, not an unknown list. */
    public DispatchResult {
        reductions = reductions == null ? List.of() : reductions;
        // Stored before attempts existed: every result was of a first attempt.
        attempt = Math.max(1, attempt);
        earlierAttempts = earlierAttempts == null ? List.of() : List.copyOf(earlierAttempts);
    }

    /**
     * How an attempt that did not give the result ended: its worker was lost
     * while it ran (ADR 0066). Its container may have run on, or even
     * finished: what it did is not part of this result.
     */
    @Schema(
            name = "EarlierAttempt",
            description = "An attempt that gave no result: its worker was lost while it ran (docs/api.md, 2.1.3).")
    @JsonPropertyOrder({"attempt", "workerId", "startedAt", "endedAt", "error"})
    public record EarlierAttempt(
            @Schema(required = true, minimum = "1") int attempt,

            @Schema(required = true, description = "the worker that ran it")
            String workerId,

            @Schema(required = true, nullable = true, description = "when its container started; null if it never did")
            Instant startedAt,

            @Schema(required = true, description = "when the worker was found lost and the attempt given up")
            Instant endedAt,

            @Schema(required = true, description = "why it gave no result: worker_lost")
            Error error) {}

    /**
     * Text the callback budget removed from one kept part of a stream, beside
     * its marker (ADR 0033). The overflow record keeps the capture's counts.
     */
    @Schema(name = "Reduction", description = "Text removed to fit sluice.callback.max-body (docs/api.md, 7.9).")
    public record Reduction(
            @Schema(
                    required = true,
                    enumeration = {"stdout", "stderr"})
            String stream,

            @Schema(
                    required = true,
                    enumeration = {"head", "tail"},
                    description = "head: from the end of the kept head; tail: from the start of the kept tail")
            String part,

            @Schema(required = true, description = "UTF-8 bytes of the returned string removed")
            long bytes) {}

    /**
     * Why the worker or the runtime could not run the dispatch, or what ended it
     * abnormally. {@code code} is stable and meant for programs; {@code message}
     * is for people.
     */
    @Schema(name = "ResultError", description = "Why the dispatch ended other than by its process's own exit.")
    public record Error(
            @Schema(
                    required = true,
                    description = "stable, for programs (docs/api.md, section 6.1)",
                    examples = "image_not_found")
            String code,

            @Schema(required = true, description = "for people")
            String message) {}

    /**
     * Where the full streams can be read while the container is retained, and
     * from which byte the runtime still holds each of them (ADR 0032).
     *
     * @param possiblyRotated true when the runtime's log rotation dropped the
     *                        oldest part of a stream, or may have and the
     *                        worker could not tell ({@code availableFrom} null)
     * @param recovered       true when the output was read back from the
     *                        runtime's log rather than captured live
     * @param availableFrom   the absolute offset of the first byte the runtime
     *                        holds, per stream; null when the worker could not
     *                        tell
     */
    @Schema(name = "ResultLogs", description = "Where the full streams can be read (docs/api.md, section 2.5).")
    @JsonPropertyOrder({"stdout", "stderr", "possiblyRotated", "recovered", "availableFrom"})
    public record Logs(
            @Schema(required = true, examples = "/v1/dispatches/triage-17/logs/stdout")
            String stdout,

            @Schema(required = true, examples = "/v1/dispatches/triage-17/logs/stderr")
            String stderr,

            @Schema(
                    required = true,
                    description = "log rotation dropped the oldest part of a stream, or may have and the worker "
                            + "could not tell (section 7.4)")
            boolean possiblyRotated,

            @Schema(
                    required = true,
                    description = "the output was read back from the runtime's log rather than captured "
                            + "live (section 7.4)")
            boolean recovered,

            @Schema(
                    required = true,
                    nullable = true,
                    description = "the first byte of each stream the runtime still holds, as an absolute stream "
                            + "offset; null when the worker could not tell (section 7.4)")
            AvailableFrom availableFrom) {

        /** A result stored before {@code availableFrom} existed, or built in tests. */
        public Logs(String stdout, String stderr, boolean possiblyRotated, boolean recovered) {
            this(stdout, stderr, possiblyRotated, recovered, null);
        }
    }

    /**
     * The absolute offset of the first byte the runtime still holds of each
     * stream: 0 while nothing was dropped, the number of bytes rotated away
     * otherwise (ADR 0032).
     */
    @Schema(
            name = "LogsAvailableFrom",
            description = "The first byte of each stream the runtime still holds (docs/api.md, section 7.4).")
    public record AvailableFrom(
            @Schema(required = true, description = "absolute offset in stdout", examples = "0")
            long stdout,

            @Schema(required = true, description = "absolute offset in stderr", examples = "0")
            long stderr) {

        /** Nothing dropped from either stream. */
        public static final AvailableFrom WHOLE = new AvailableFrom(0, 0);

        /**
         * From what the process wrote and what the runtime returns now: the
         * missing bytes are the oldest ones. A log longer than what was written
         * (json-file stores each byte that is not UTF-8 as three) lost nothing.
         */
        public static AvailableFrom of(long stdoutWritten, long stderrWritten, long stdoutHeld, long stderrHeld) {
            return new AvailableFrom(Math.max(0, stdoutWritten - stdoutHeld), Math.max(0, stderrWritten - stderrHeld));
        }

        public long forStream(boolean stdout) {
            return stdout ? this.stdout : stderr;
        }

        public boolean whole() {
            return stdout == 0 && stderr == 0;
        }
    }
}
