package dev.sluice.artifact;

import java.time.Duration;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How artifacts are kept (ADR 0029): the files an agent leaves under {@code <out-dir>/artifacts/}. */
@ConfigMapping(prefix = "sluice.artifacts")
public interface ArtifactConfig {

    /**
     * Where kept artifacts live on the worker's disk: a directory per dispatch,
     * beside the store's data. With several workers, each keeps those of the
     * dispatches it ran, unless they share this directory.
     */
    @WithDefault("${sluice.data-dir}/artifacts")
    String dir();

    /** The largest file kept; a larger one is refused from its size alone, its data never kept. */
    @WithDefault("16M")
    MemorySize maxFileSize();

    /** The most a dispatch's artifacts take together, and the most file data read from its archive. */
    @WithDefault("64M")
    MemorySize maxTotalSize();

    /** The most files kept per dispatch; further ones are counted as refused. */
    @WithDefault("1000")
    int maxCount();

    /**
     * How long artifacts are kept after their dispatch finished, as its
     * container (and log) is by default; then they are {@code 410 artifact-gone}.
     * They also go with the record.
     */
    @WithDefault("24h")
    Duration retention();
}
