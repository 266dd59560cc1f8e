package dev.sluice.record;

import dev.sluice.output.MarkerNonce;
import dev.sluice.output.OutputFormat;
import dev.sluice.output.StreamCollector;

/**
 * The output caps a dispatch may ask for, as the API validates them: the
 * worker's defaults and maxima, and the floor below which a cap has no room
 * for the truncation marker.
 */
public record OutputCaps(int min, int stdoutDefault, int stdoutMax, int stderrDefault, int stderrMax) {

    /** The longest dispatch id, whose log path every marker may have to state. */
    private static final String LONGEST_ID = "x".repeat(64);

    /** The floor for a stream captured in {@code format}: room for its marker, for the longest id. */
    public int min(OutputFormat format) {
        return Math.max(
                min, StreamCollector.minCap(format, DispatchLinks.log(LONGEST_ID, "stdout"), MarkerNonce.random()));
    }
}
