package dev.sluice.artifact;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sluice.testsupport.MutableClock;

/**
 * sluice.artifacts.max-disk (ADR 0055): the oldest other dispatches' artifacts
 * go to make room, each leaving a mark of why; the dispatch being collected
 * and files still being written never go; the account survives a restart.
 * max-disk-per-tenant (ADR 0073): a tenant over its share makes room from its
 * own oldest artifacts, never another tenant's, and the worker's quota takes
 * from the tenant that keeps the most.
 */
class ArtifactQuotaTest {

    private static final long QUOTA = 1000;

    @TempDir
    Path root;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-23T10:00:00Z"));

    private ArtifactStore store() {
        return new ArtifactStore(root, Duration.ofHours(1), QUOTA, QUOTA, clock);
    }

    /** Keeps files of {@code sizes} bytes for dispatch {@code id}; what was refused, if anything. */
    private ArtifactsRefused keep(ArtifactStore store, String id, int... sizes) throws IOException {
        try (ArtifactStore.Incoming incoming = store.incoming(id)) {
            ArtifactCollector collector = new ArtifactCollector(incoming, QUOTA, QUOTA, 10, n -> n);
            for (int i = 0; i < sizes.length; i++) {
                collector.file("f" + i, sizes[i], new ByteArrayInputStream(new byte[sizes[i]]));
            }
            if (collector.keptAny()) {
                incoming.commit();
            }
            clock.advance(Duration.ofSeconds(1));
            return collector.result(null).refused();
        }
    }

    @Test
    void theOldestOtherDispatchesGoFirstAndSaySo() throws IOException {
        ArtifactStore store = store();
        keep(store, "d-1", 300);
        keep(store, "d-2", 300);
        keep(store, "d-3", 300);
        assertThat(store.used()).isEqualTo(900);

        assertThat(keep(store, "d-4", 200, 250)).isNull(); // room for each file as it comes

        assertThat(store.holds("d-1")).isFalse();
        assertThat(store.evicted("d-1")).isTrue();
        assertThat(store.holds("d-2")).isFalse();
        assertThat(store.evicted("d-2")).isTrue();
        assertThat(store.holds("d-3")).isTrue();
        assertThat(store.evicted("d-3")).isFalse();
        assertThat(store.holds("d-4")).isTrue();
        assertThat(store.used()).isEqualTo(750);
        assertThat(bytesOnDisk()).isEqualTo(750);
    }

    @Test
    void theDispatchBeingCollectedNeverGoesAndWhatFindsNoRoomIsNotStored() throws IOException {
        ArtifactStore store = store();
        keep(store, "d-1", 900);
        // d-1 again (a worker that took it over): its own earlier copy is not evicted for it
        ArtifactsRefused refused = keep(store, "d-1", 50, 200);

        assertThat(refused.count()).isEqualTo(1);
        assertThat(refused.entries())
                .containsExactly(new ArtifactsRefused.Entry("f1", ArtifactsRefused.Reason.NOT_STORED));
        assertThat(store.evicted("d-1")).isFalse();
        assertThat(store.used()).isEqualTo(50);
        assertThat(bytesOnDisk()).isEqualTo(50);
    }

    @Test
    void filesStillBeingWrittenAreCountedAndNeverEvicted() throws IOException {
        ArtifactStore store = store();
        try (ArtifactStore.Incoming writing = store.incoming("d-1")) {
            writing.create("big", 800).close();
            assertThat(store.used()).isEqualTo(800);

            ArtifactsRefused refused = keep(store, "d-2", 300);

            assertThat(refused.entries())
                    .containsExactly(new ArtifactsRefused.Entry("f0", ArtifactsRefused.Reason.NOT_STORED));
        }
        assertThat(store.used()).isZero(); // closed without a commit: its room is given back
    }

    @Test
    void theAccountSurvivesARestartAndTheMarkGoesWithTheRetention() throws IOException {
        keep(store(), "d-1", 400);
        keep(store(), "d-2", 400);

        ArtifactStore restarted = store();
        assertThat(restarted.used()).isEqualTo(800);
        keep(restarted, "d-3", 400);
        assertThat(restarted.evicted("d-1")).isTrue();
        assertThat(restarted.holds("d-2")).isTrue();

        clock.advance(Duration.ofHours(2));
        restarted.sweep();
        assertThat(restarted.evicted("d-1")).isFalse();
        assertThat(restarted.used()).isZero();
        try (Stream<Path> left = Files.list(root)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void aDispatchKeptAgainAfterItsEvictionIsNoLongerMarked() throws IOException {
        ArtifactStore store = store();
        keep(store, "d-1", 600);
        keep(store, "d-2", 600);
        assertThat(store.evicted("d-1")).isTrue();
        keep(store, "d-1", 100);
        assertThat(store.evicted("d-1")).isFalse();
        assertThat(store.holds("d-1")).isTrue();
        store.delete("d-2");
        assertThat(store.used()).isEqualTo(100);
    }

    private long bytesOnDisk() throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile)
                    .mapToLong(f -> f.toFile().length())
                    .sum();
        }
    }

    @Test
    void aTenantOverItsShareEvictsItsOwnOldestNeverAnothers() throws IOException {
        ArtifactStore store = new ArtifactStore(root, Duration.ofHours(1), QUOTA, 500, clock);
        keep(store, "quiet.d-1", 300); // the oldest on the disk
        keep(store, "noisy.d-1", 200);
        keep(store, "noisy.d-2", 200);

        assertThat(keep(store, "noisy.d-3", 250)).isNull();
        assertThat(store.evicted("noisy.d-1")).isTrue();
        assertThat(keep(store, "noisy.d-4", 300)).isNull();

        assertThat(store.holds("quiet.d-1")).isTrue();
        assertThat(store.evicted("quiet.d-1")).isFalse();
        assertThat(store.evicted("noisy.d-2")).isTrue();
        assertThat(store.evicted("noisy.d-3")).isTrue();
        assertThat(store.holds("noisy.d-4")).isTrue();
        assertThat(store.used("noisy")).isEqualTo(300);
        assertThat(store.used("quiet")).isEqualTo(300);
        assertThat(bytesOnDisk()).isEqualTo(600);
    }

    @Test
    void aFileLargerThanATenantsShareIsRefusedWithoutEvictingAnything() throws IOException {
        ArtifactStore store = new ArtifactStore(root, Duration.ofHours(1), QUOTA, 500, clock);
        keep(store, "noisy.d-1", 400);

        ArtifactsRefused refused = keep(store, "noisy.d-2", 600);

        assertThat(refused.count()).isEqualTo(1);
        assertThat(store.holds("noisy.d-1")).isTrue();
        assertThat(store.used("noisy")).isEqualTo(400);
    }

    @Test
    void theWorkersQuotaTakesFromTheTenantThatKeepsTheMost() throws IOException {
        ArtifactStore store = new ArtifactStore(root, Duration.ofHours(1), QUOTA, 600, clock);
        keep(store, "alpha.d-1", 100); // the oldest, of the tenant that keeps least
        keep(store, "beta.d-1", 200);
        keep(store, "beta.d-2", 200);
        keep(store, "gamma.d-1", 450);

        assertThat(keep(store, "delta.d-1", 300)).isNull();

        assertThat(store.holds("alpha.d-1")).isTrue();
        assertThat(store.holds("beta.d-1"))
                .as("older, but of a tenant that keeps less")
                .isTrue();
        assertThat(store.evicted("gamma.d-1")).isTrue();
        assertThat(store.used()).isEqualTo(800);
    }
}
