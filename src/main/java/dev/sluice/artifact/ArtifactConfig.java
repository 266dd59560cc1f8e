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
     * apart from the store's data, so agents filling it never fill the store's
     * disk when this is a filesystem of its own. With several workers, each
     * keeps those of the dispatches it ran, unless they share this directory.
     * Before ADR 0055 the default was {@code ${sluice.data-dir}/artifacts}
     * (docs/operations.md says how to move them).
     */
    @WithDefault("./artifacts")
    String dir();

    /**
     * The most all kept artifacts take together on the worker's disk: room for
     * a dispatch's files is made by deleting the artifacts of the dispatches
     * kept first, of the tenant that keeps the most, which then answer
     * {@code 410 artifact-gone} saying so (ADR 0055, and ADR 0073). At least
     * {@code max-total-size}.
     */
    @WithDefault("4G")
    MemorySize maxDisk();

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

    /**
     * The most one tenant's kept artifacts take together on the worker's disk
     * (ADR 0073): room for a dispatch's files past it is made by deleting that
     * tenant's own oldest artifacts, never another tenant's. At least
     * {@code max-total-size}, and at most {@code max-disk}. A quarter of
     * {@code max-disk}.
     */
    @WithDefault("1G")
    MemorySize maxDiskPerTenant();
}
