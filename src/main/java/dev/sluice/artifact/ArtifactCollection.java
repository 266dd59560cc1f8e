package dev.sluice.artifact;

import java.io.IOException;
import java.util.List;
import java.util.function.UnaryOperator;

import org.jboss.logging.Logger;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.files.OutArchive;

/**
 * Keeps the files a dispatch's agent left under {@code <out-dir>/artifacts/}
 * once its container has exited (ADR 0029): read through the engine's archive
 * within the call deadline and a bound, copied to the worker's disk within
 * the per-file, total and count bounds. Nothing found there fails the
 * dispatch; what is refused is counted and named in the result.
 */
public class ArtifactCollection {

    /** The directory of the out-directory that holds artifacts. */
    private static final String DIRECTORY = "artifacts";

    private static final Logger LOG = Logger.getLogger(ArtifactCollection.class);
    /** Room in the archive's bound for each entry's headers (a tar header, its padding, a long name's header). */
    static final long HEADER_ROOM = 4 * 1024;

    private final ContainerRuntime runtime;
    private final ArtifactStore store;
    private final ArtifactConfig config;

    public ArtifactCollection(ContainerRuntime runtime, ArtifactStore store, ArtifactConfig config) {
        this.runtime = runtime;
        this.store = store;
        this.config = config;
    }

    /** Keeps the artifacts of an exited container; {@code href} makes an artifact's address from its name. */
    public Artifacts collect(String dispatchId, String containerId, UnaryOperator<String> href) {
        try (ArtifactStore.Incoming incoming = store.incoming(dispatchId)) {
            ArtifactCollector collector = new ArtifactCollector(
                    incoming,
                    config.maxFileSize().asLongValue(),
                    config.maxTotalSize().asLongValue(),
                    config.maxCount(),
                    href);
            OutArchive.End end = runtime.walkOutDirectory(containerId, DIRECTORY, readBound(), collector);
            if (collector.keptAny()) {
                incoming.commit();
            } else {
                store.delete(dispatchId); // what an earlier read of a dispatch taken over may have kept
            }
            return collector.result(end.problem());
        } catch (IOException | RuntimeException e) { // the commit: the worker's disk
            LOG.warnf("artifacts not kept: %s", e.getMessage());
            return new Artifacts(
                    List.of(),
                    new ArtifactsRefused(0, List.of(), "the artifacts could not be kept: " + e.getMessage()));
        }
    }

    /** The most of the archive read: every file's data within the total, and headers for many more entries. */
    long readBound() {
        return config.maxTotalSize().asLongValue() + HEADER_ROOM * (4L * config.maxCount() + 16);
    }
}
