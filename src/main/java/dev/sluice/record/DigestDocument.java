package dev.sluice.record;

import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.sluice.report.ReportStatus;

/**
 * The digest as the API document names its fields (docs/api.md, section 7.6):
 * {@link DispatchDigest} writes the bytes, field by field within its budget;
 * this type only describes them, for the answer of {@code GET .../digest} and
 * the body of a {@code callbackMode: digest} callback. The tests check real
 * digests against what it says.
 */
@Schema(
        name = "DispatchDigest",
        description = "A dispatch in at most 512 bytes of compact JSON: the answer of GET /v1/dispatches/{id}/digest"
                + " and the signed body of a callback with callbackMode digest (docs/api.md, section 7.6).")
public record DigestDocument(
        @Schema(required = true, description = "the dispatch's id, as its tenant knows it")
        String id,

        @Schema(
                required = true,
                pattern = DispatchKey.TENANT_PATTERN,
                description = "the tenant the dispatch belongs to: a receiver checks that it is the tenant it "
                        + "expects (section 8.10)")
        String tenant,

        @Schema(required = true) Dispatch.Status status,

        @Schema(required = true, nullable = true, description = "as in the result")
        Integer exitCode,

        @Schema(required = true, nullable = true, description = "the result's error.code")
        String error,

        @Schema(required = true, nullable = true, description = "null until the dispatch finished")
        Stream stdout,

        @Schema(required = true, nullable = true, description = "as stdout")
        Stream stderr,

        @Schema(required = true, nullable = true, description = "artifacts kept; null until it finished")
        Integer artifacts,

        @Schema(required = true, nullable = true, description = "as in the result; null until it finished")
        ReportStatus reportStatus,

        @Schema(
                required = true,
                nullable = true,
                description = "what the agent reported, shortened; null unless reportStatus is present or truncated")
        Report report,

        @Schema(required = true) Links links) {

    /** One stream as the digest counts it. */
    @Schema(name = "DigestStream", description = "Every byte written, the returned string's bytes, and a cut.")
    public record Stream(
            @Schema(required = true) long bytes,
            @Schema(required = true) long kept,
            @Schema(required = true) boolean truncated) {}

    /** The agent's report, as much as fits. */
    @Schema(name = "DigestReport", description = "What the agent reported, shortened to fit (section 7.6).")
    public record Report(
            @Schema(required = true, nullable = true) String verdict,
            @Schema(required = true) String confidence,
            @Schema(required = true) String summary,

            @Schema(required = true, description = "how many files the agent listed")
            int filesChanged,

            @Schema(required = true, description = "the report's first stats, whole entries")
            Map<String, Object> stats) {}

    /** Where the whole record is. */
    @Schema(name = "DigestLinks")
    public record Links(
            @Schema(required = true, description = "the record's path")
            String self) {}
}
