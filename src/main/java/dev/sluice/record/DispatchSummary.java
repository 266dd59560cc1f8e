package dev.sluice.record;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The digest of a finished dispatch that a listing shows: enough for a parent to
 * triage many dispatches without reading their output, which stays one request
 * away (the record's {@code result}, or the full log).
 */
@Schema(
        name = "DispatchSummary",
        description = "The digest of a finished dispatch in a listing (docs/api.md, section 5).")
public record DispatchSummary(
        @Schema(required = true, nullable = true, description = "as in the result")
        Integer exitCode,

        @Schema(required = true, nullable = true, description = "as in the result")
        DispatchResult.Error error,

        @Schema(required = true, nullable = true, description = "as in the result")
        Long durationMs,

        @Schema(required = true, description = "every byte the process wrote to stdout")
        long stdoutBytes,

        @Schema(required = true, description = "every byte the process wrote to stderr")
        long stderrBytes,

        @Schema(required = true, description = "whether the result's stdout was truncated")
        boolean stdoutTruncated,

        @Schema(required = true, description = "whether the result's stderr was truncated")
        boolean stderrTruncated) {

    public static DispatchSummary of(DispatchResult result, long stdoutBytes, long stderrBytes) {
        return new DispatchSummary(
                result.exitCode(),
                result.error(),
                result.durationMs(),
                stdoutBytes,
                stderrBytes,
                result.stdoutOverflow() != null,
                result.stderrOverflow() != null);
    }
}
