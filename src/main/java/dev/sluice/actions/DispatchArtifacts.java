package dev.sluice.actions;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.function.Predicate;

import dev.sluice.artifact.ArtifactStore;
import dev.sluice.artifact.MediaTypes;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchDigest;
import dev.sluice.record.DispatchQueries;
import dev.sluice.record.RequestRefused;

/**
 * A finished dispatch's artifacts as the API serves them (docs/api.md,
 * section 2.13): from this worker's disk while retained. The artifact count
 * in the dispatch's digest tells an unknown name (404) from a removed one
 * (410, after the retention or evicted for the disk's quota, ADR 0055); a dispatch another worker ran keeps its artifacts on that worker's
 * disk until the retention has passed (421, ADR 0029).
 */
public class DispatchArtifacts {

    private final DispatchQueries queries;
    private final ArtifactStore store;
    private final String workerId;
    private final Clock clock;
    private final Predicate<String> gone;

    public DispatchArtifacts(DispatchQueries queries, ArtifactStore store, String workerId, Clock clock) {
        this(queries, store, workerId, clock, worker -> false);
    }

    /** @param gone whether a worker is no longer running, its disk out of reach with it (ADR 0065) */
    public DispatchArtifacts(
            DispatchQueries queries, ArtifactStore store, String workerId, Clock clock, Predicate<String> gone) {
        this.queries = queries;
        this.store = store;
        this.workerId = workerId;
        this.clock = clock;
        this.gone = gone;
    }

    /**
     * The media type of artifact {@code name}, kept in {@code file}: the one it
     * was given when kept (docs/api.md, section 7.8).
     */
    public static String mediaType(String name, Path file) throws IOException {
        return MediaTypes.of(name, file);
    }

    /** The file artifact {@code name} of dispatch {@code id} is kept in. */
    public Path file(Caller caller, String id, String name) {
        String key = caller.dispatchKey(id);
        Dispatch dispatch = queries.get(key);
        if (!dispatch.status().terminal()) {
            throw new RequestRefused(
                    RequestRefused.Reason.ARTIFACT_NOT_FOUND,
                    "dispatch " + id + " has not finished; its artifacts are kept when it does");
        }
        if (store.holds(key)) {
            return store.file(key, name).orElseThrow(() -> unknown(id, name));
        }
        if (store.evicted(key)) {
            throw new RequestRefused(
                    RequestRefused.Reason.ARTIFACT_GONE,
                    "the artifacts of dispatch " + id + " were removed to keep sluice.artifacts.max-disk ("
                            + store.maxDisk() + " bytes) and max-disk-per-tenant (" + store.maxDiskPerTenant()
                            + " bytes) for newer dispatches' artifacts");
        }
        if (DispatchDigest.artifacts(queries.digest(key)) == 0) {
            throw unknown(id, name);
        }
        boolean retained = dispatch.finishedAt() != null
                && dispatch.finishedAt().plus(store.retention()).isAfter(clock.instant());
        boolean elsewhere = dispatch.workerId() != null && !dispatch.workerId().equals(workerId);
        if (retained && elsewhere && gone.test(dispatch.workerId())) {
            throw new RequestRefused(
                    RequestRefused.Reason.ARTIFACT_GONE,
                    "the artifacts of dispatch " + id + " were kept on the disk of worker " + dispatch.workerId()
                            + ", which is no longer running");
        }
        if (retained && elsewhere) {
            throw new RequestRefused(
                    RequestRefused.Reason.ARTIFACT_ELSEWHERE,
                    "the artifacts of dispatch " + id + " are kept on the disk of worker " + dispatch.workerId()
                            + ", which ran it; ask that worker");
        }
        throw new RequestRefused(
                RequestRefused.Reason.ARTIFACT_GONE,
                "the artifacts of dispatch " + id + " were removed after sluice.artifacts.retention ("
                        + store.retention() + ")");
    }

    private static RequestRefused unknown(String id, String name) {
        return new RequestRefused(
                RequestRefused.Reason.ARTIFACT_NOT_FOUND, "dispatch " + id + " kept no artifact named " + name);
    }
}
