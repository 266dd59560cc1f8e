package dev.sluice.dispatch;

/**
 * The digest of a finished dispatch that a listing shows: enough for a parent to
 * triage many dispatches without reading their output, which stays one request
 * away (the record's {@code result}, or the full log).
 */
public record DispatchSummary(
        Integer exitCode,
        DispatchResult.Error error,
        Long durationMs,
        long stdoutBytes,
        long stderrBytes,
        boolean stdoutTruncated,
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
