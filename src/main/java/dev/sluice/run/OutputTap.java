package dev.sluice.run;

import dev.sluice.container.stream.OutputSink;
import dev.sluice.output.SecretMasker;

/**
 * Lets the live tail watch a dispatch's output as it is captured. The sink it
 * opens is called on the reader thread after the collectors, and must never
 * block or wait: what it cannot take at once it drops.
 */
public interface OutputTap {

    OutputTap NONE = (dispatchId, masker) -> null;

    /**
     * A sink for the live output of a dispatch about to start, or {@code null}
     * when nothing watches it.
     *
     * @param masker the dispatch's secrets, to mask what is shown
     */
    OutputSink open(String dispatchId, SecretMasker masker);
}
