package dev.sluice.report;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How the agent's report is read (ADR 0022). Where it is written is {@code sluice.container.out-dir}. */
@ConfigMapping(prefix = "sluice.report")
public interface ReportConfig {

    /**
     * The largest report file read. A larger one is malformed, and never read:
     * its size is known from the archive's header before any of its data.
     */
    @WithDefault("64K")
    MemorySize maxSize();
}
