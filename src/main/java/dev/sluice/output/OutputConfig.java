package dev.sluice.output;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Output caps (ADR 0002): defaults for a dispatch, and the most a dispatch may ask for. */
@ConfigMapping(prefix = "sluice.output")
public interface OutputConfig {

    /** Cap on a result's stdout, marker included, when the dispatch names none. */
    @WithDefault("4M")
    MemorySize stdoutCap();

    /** Cap on a result's stderr, marker included, when the dispatch names none. */
    @WithDefault("256K")
    MemorySize stderrCap();

    /** The most stdout cap a dispatch may ask for; more is refused with 422. */
    @WithDefault("16M")
    MemorySize maxStdoutCap();

    /** The most stderr cap a dispatch may ask for; more is refused with 422. */
    @WithDefault("1M")
    MemorySize maxStderrCap();

    /**
     * Largest stream captured as {@code json} that is read back whole from the
     * runtime's log and reduced when it is over its cap (ADR 0031); a longer one
     * is returned as text. Reducing holds the document in memory, within
     * {@code sluice.dispatch.finish-memory}.
     */
    @WithDefault("64M")
    MemorySize maxJsonDocument();
}
