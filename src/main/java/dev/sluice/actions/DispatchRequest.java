package dev.sluice.actions;

import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.sluice.actions.reading.BodyLimits;
import dev.sluice.image.ImageName;
import dev.sluice.json.RecordCopies;
import dev.sluice.workspace.WorkspaceRequest;

/**
 * A dispatch as a control plane POSTs it (docs/api.md, section 3). Only
 * {@code image} is required; unknown fields are refused.
 */
@Schema(
        name = "DispatchRequest",
        description = "A dispatch to run (docs/api.md, section 3). Only image is required; unknown fields, "
                + "values of the wrong type and null inside command, env or secrets are refused with 422. "
                + "Defaults and maxima in parentheses are those of a worker with default settings (section 10).")
public record DispatchRequest(
        @Schema(
                description = "makes the request idempotent: the same id with the same content is a replay "
                        + "(202, Idempotent-Replayed: true), with different content 409; made by the worker "
                        + "(d- and 32 hex digits) when absent",
                pattern = DispatchRequestValidator.ID_PATTERN,
                examples = "triage-17")
        String id,

        @Schema(
                required = true,
                description = "the image: name[:tag] or name@sha256:<digest>, pulled from its registry as "
                        + "imagePullPolicy says (section 3.6), allowed by sluice.images.allowed (otherwise 403)",
                maxLength = 512,
                examples = "sluice-agent:test")
        String image,

        @Schema(
                description = "when the image is pulled: never, if-not-present or always; by default, and at "
                        + "most, the worker's sluice.images.pull-policy (if-not-present) in that order (section 3.6)",
                enumeration = {"never", "if-not-present", "always"})
        @JsonInclude(JsonInclude.Include.NON_NULL) // absent, it leaves the idempotency fingerprint as before
        String imagePullPolicy,

        @Schema(
                description = "replaces the image's command (its entrypoint stays); no NUL characters; at most "
                        + BodyLimits.MAX_ITEMS + " arguments, counted as the body is read",
                maxItems = BodyLimits.MAX_ITEMS)
        List<String> command,

        @Schema(
                description = "environment variables; kept with the dispatch, never returned; at most "
                        + BodyLimits.MAX_ITEMS + ", counted as the body is read",
                maxProperties = BodyLimits.MAX_ITEMS)
        Map<String, String> env,

        @Schema(
                description = "environment variables whose values are never stored or returned, and are "
                        + "masked in everything captured, also as their lines, base64, JSON escapes and URL "
                        + "encodings (section 3.2); each value at least sluice.secrets.min-length (8) bytes "
                        + "as UTF-8; at most " + BodyLimits.MAX_ITEMS + ", counted as the body is read",
                maxProperties = BodyLimits.MAX_ITEMS)
        Map<String, String> secrets,

        @Schema(
                description = "written to the process's stdin, which is then closed; at most "
                        + "sluice.dispatch.max-input (1 MiB) as UTF-8")
        String input,

        @Schema(description = "an absolute path; by default the tmpfs work area /work", maxLength = 4096)
        String workingDir,

        @Schema(
                description = "counted from the container's start; ISO-8601 (PT15M) or a number "
                        + "followed by ms, s, m, h or d (15m); 30 min by default, at most "
                        + "sluice.dispatch.max-timeout (6 h)",
                examples = "PT5M")
        String timeout,

        @Schema(
                description = "stops the container, as the timeout does, once it has printed nothing on "
                        + "either stream for this long, and the dispatch ends timed_out with the error code "
                        + "idle; same format as timeout; none by default, at most "
                        + "sluice.dispatch.max-idle-timeout (1 h)",
                examples = "PT2M")
        String idleTimeout,

        Resources resources,

        @Schema(description = "one of the worker's allowed networks; by default the first of them (none)")
        String network,

        @Schema(
                description = "the engine's runtime to run the container under, one of sluice.container.runtimes "
                        + "(runsc for gVisor); by default the engine's own",
                examples = "runsc")
        String runtime,

        Output output,

        @Schema(
                description = "where the signed result is POSTed (section 8): http or https, allowed by the "
                        + "SSRF rules (8.8); needs a signing secret on the worker",
                maxLength = 2048,
                format = "uri")
        String callbackUrl,

        @Schema(
                description = "what each callback carries: full (the DispatchResult, the default) or digest "
                        + "(the digest of section 7.6, at most 512 bytes)",
                enumeration = {"full", "digest"})
        String callbackMode,

        @Schema(
                description = "how each callback body is sent: identity (as it is, the default) or gzip "
                        + "(Content-Encoding: gzip); the signature is over the uncompressed body (section 8.2)",
                enumeration = {"identity", "gzip"})
        @JsonInclude(JsonInclude.Include.NON_NULL) // absent, it leaves the idempotency fingerprint as before
        String callbackEncoding,

        @Schema(
                description = "any JSON object of at most 16384 bytes, " + BodyLimits.METADATA_VALUES
                        + " values and " + BodyLimits.METADATA_DEPTH + " levels below it (section 3.7), "
                        + "returned in the record, listing and result")
        Map<String, Object> metadata,

        @JsonInclude(JsonInclude.Include.NON_NULL) // absent, it leaves the idempotency fingerprint as before
        WorkspaceRequest workspace,

        @Schema(
                description = "how many times the dispatch may be attempted: above 1, a dispatch whose worker is "
                        + "lost while it runs is run again by another (at least once, not exactly once: the lost "
                        + "attempt may have done its work; section 2.1.3); 1 by default, at most "
                        + DispatchRequestValidator.MAX_ATTEMPTS + "; above 1 not with secrets or workspace.files",
                minimum = "1",
                maximum = "" + DispatchRequestValidator.MAX_ATTEMPTS)
        @JsonInclude(JsonInclude.Include.NON_NULL) // absent, it leaves the idempotency fingerprint as before
        Integer maxAttempts) {

    /**
     * The registry its image is pulled from, as the engine reads the reference
     * ({@code host[:port]} in lower case; {@code docker.io} when it names
     * none); {@code null} when the image is missing or no valid reference.
     */
    @JsonIgnore
    public String imageRegistry() {
        return image == null || !ImageReference.isValid(image)
                ? null
                : ImageName.parse(image).domain();
    }

    /** The same request with {@code imagePullPolicy} set to {@code policy}. */
    public DispatchRequest withImagePullPolicy(String policy) {
        return RecordCopies.with(this, "imagePullPolicy", policy);
    }

    @Schema(name = "DispatchResources", description = "Limits of the dispatch's container.")
    public record Resources(
            @Schema(
                    description = "memory limit, no swap beyond it; 1 GiB by default, at most "
                            + "sluice.dispatch.max-memory (8 GiB)",
                    minimum = "6291456")
            Long memoryBytes,

            @Schema(description = "CPU limit; 1.0 by default, at most sluice.dispatch.max-cpus (4.0)", minimum = "0.01")
            Double cpus,

            @Schema(
                    description = "process limit; 256 by default, at most sluice.dispatch.max-pids (4096)",
                    minimum = "1")
            Long pids) {}

    @Schema(
            name = "DispatchOutput",
            description = "Caps on the result's streams, the truncation marker included, and how each stream is "
                    + "cut when it is over its cap (sections 7, 7.11).")
    public record Output(
            @Schema(description = "4 MiB by default, at most sluice.output.max-stdout-cap (16 MiB)", minimum = "1024")
            Long stdoutCapBytes,

            @Schema(description = "256 KiB by default, at most sluice.output.max-stderr-cap (1 MiB)", minimum = "1024")
            Long stderrCapBytes,

            @Schema(
                    description = "how stdout is cut: text (the default; head, marker line, tail), jsonl (whole "
                            + "records only) or json (one document, reduced step by step) (section 7.11)",
                    enumeration = {"text", "jsonl", "json"})
            String format,

            @Schema(
                    description = "as format, for stderr",
                    enumeration = {"text", "jsonl", "json"})
            String stderrFormat,

            @Schema(
                    description = "json only: JSON Pointers (RFC 6901) of the fields to keep in each object that is "
                            + "an array's element, the first reduction of a document over its cap (section 7.11); "
                            + "at most 64, each at most 1024 characters",
                    examples = "[\"/id\", \"/title\"]")
            List<String> project) {}
}
