package dev.sluice.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sluice.artifact.Artifact;
import dev.sluice.artifact.ArtifactStore;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchQueries;
import dev.sluice.record.DispatchResult;
import dev.sluice.record.RequestRefused;
import dev.sluice.record.StoredDispatches;
import dev.sluice.store.Jdbc;
import dev.sluice.testsupport.MutableClock;
import dev.sluice.testsupport.TestStores;

/** Which answer a request for an artifact gets: the file, or why not (404, 410, 421; ADR 0029). */
class DispatchArtifactsTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");

    @TempDir
    Path root;

    private final Jdbc jdbc = TestStores.migrated(TestStores.h2());
    private final StoredDispatches dispatches = new StoredDispatches(jdbc, StoredDispatches.NO_OUTBOX);
    private final MutableClock clock = new MutableClock(T0.plusSeconds(60));

    private DispatchArtifacts artifacts(ArtifactStore store) {
        return new DispatchArtifacts(new DispatchQueries(dispatches.store()), store, "w-here", clock);
    }

    private ArtifactStore store() {
        return new ArtifactStore(root, Duration.ofHours(1), clock);
    }

    private void finished(String id, String workerId, List<Artifact> kept) {
        dispatches.queued(id, null, workerId, T0);
        DispatchResult r = StoredDispatches.result(id, Dispatch.Status.SUCCEEDED, "", T0);
        dispatches.finish(new DispatchResult(
                r.dispatchId(),
                r.tenant(),
                r.status(),
                r.exitCode(),
                r.error(),
                r.image(),
                r.imageDigest(),
                r.runtime(),
                r.startedAt(),
                r.finishedAt(),
                r.durationMs(),
                r.attempt(),
                r.earlierAttempts(),
                r.stdout(),
                r.stderr(),
                r.stdoutOverflow(),
                r.stderrOverflow(),
                r.reductions(),
                r.stdoutDigest(),
                r.stderrDigest(),
                r.stdoutWitness(),
                r.stderrWitness(),
                r.stdoutTokens(),
                r.stderrTokens(),
                r.stdoutFormat(),
                r.stderrFormat(),
                r.logs(),
                r.reportStatus(),
                r.reportSource(),
                r.reportDetail(),
                r.report(),
                kept,
                null,
                null,
                r.metadata()));
    }

    private static List<Artifact> one() {
        return List.of(new Artifact("a.txt", 1, "0".repeat(64), "text/plain; charset=utf-8", "/x"));
    }

    @Test
    void aKeptArtifactIsServedAndAnUnknownNameIsNotFound() throws Exception {
        finished("d-1", "w-here", one());
        Files.createDirectories(root.resolve("d-1"));
        Files.writeString(root.resolve("d-1").resolve(artifactFile("a.txt")), "a");

        assertThat(artifacts(store()).file(Caller.ANONYMOUS, "d-1", "a.txt")).hasContent("a");
        assertRefused("d-1", "b.txt", RequestRefused.Reason.ARTIFACT_NOT_FOUND);
    }

    @Test
    void aDispatchThatKeptNoneOrHasNotFinishedHasNone() {
        finished("d-2", "w-here", List.of());
        assertRefused("d-2", "a.txt", RequestRefused.Reason.ARTIFACT_NOT_FOUND);
        dispatches.queued("d-3", null, "w-here", T0);
        assertRefused("d-3", "a.txt", RequestRefused.Reason.ARTIFACT_NOT_FOUND);
        assertRefused("d-none", "a.txt", RequestRefused.Reason.NOT_FOUND);
    }

    @Test
    void keptArtifactsNoLongerHereAreGoneOrWithTheWorkerThatRanTheDispatch() {
        finished("d-4", "w-here", one());
        assertRefused("d-4", "a.txt", RequestRefused.Reason.ARTIFACT_GONE);

        finished("d-5", "w-there", one());
        assertRefused("d-5", "a.txt", RequestRefused.Reason.ARTIFACT_ELSEWHERE);
        clock.advance(Duration.ofHours(2)); // past the retention, the other worker has swept them too
        assertRefused("d-5", "a.txt", RequestRefused.Reason.ARTIFACT_GONE);
    }

    @Test
    void artifactsEvictedForTheQuotaAreGoneAndSaySo() throws Exception {
        finished("d-6", "w-here", one());
        finished("d-7", "w-here", one());
        ArtifactStore store = new ArtifactStore(root, Duration.ofHours(1), 1, clock);
        Files.createDirectories(root.resolve("d-6"));
        Files.writeString(root.resolve("d-6").resolve(artifactFile("a.txt")), "a");
        Files.write(root.resolve(".evicted-d-7"), new byte[0]);

        assertThat(artifacts(store).file(Caller.ANONYMOUS, "d-6", "a.txt")).hasContent("a");
        assertThatThrownBy(() -> artifacts(store).file(Caller.ANONYMOUS, "d-7", "a.txt"))
                .isInstanceOfSatisfying(RequestRefused.class, e -> {
                    assertThat(e.reason()).isEqualTo(RequestRefused.Reason.ARTIFACT_GONE);
                    assertThat(e.getMessage())
                            .isEqualTo("the artifacts of dispatch d-7 were removed to keep sluice.artifacts.max-disk"
                                    + " (1 bytes) for newer dispatches' artifacts");
                });
    }

    private void assertRefused(String id, String name, RequestRefused.Reason reason) {
        assertThatThrownBy(() -> artifacts(store()).file(Caller.ANONYMOUS, id, name))
                .isInstanceOfSatisfying(
                        RequestRefused.class, e -> assertThat(e.reason()).isEqualTo(reason));
    }

    /** The file an artifact is kept in, computed here as the store names it: the SHA-256 of the name. */
    private static String artifactFile(String name) throws Exception {
        return java.util.HexFormat.of()
                .formatHex(java.security.MessageDigest.getInstance("SHA-256")
                        .digest(name.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
}
