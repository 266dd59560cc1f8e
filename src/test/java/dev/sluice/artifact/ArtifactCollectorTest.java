package dev.sluice.artifact;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sluice.container.files.OutArchive;
import dev.sluice.testsupport.MutableClock;

/** What is kept of what a walk offers: bounds per file, in total and in number; hashes; names of what was refused. */
class ArtifactCollectorTest {

    @TempDir
    Path root;

    private final MutableClock clock = new MutableClock(Instant.now());

    private ArtifactStore store() {
        return new ArtifactStore(root, Duration.ofHours(1), clock);
    }

    @Test
    void keptFilesAreHashedTypedAndStoredUnderTheirDispatch() throws Exception {
        ArtifactStore store = store();
        byte[] binary = new byte[200_000];
        new Random(7).nextBytes(binary);
        Artifacts artifacts;
        try (ArtifactStore.Incoming incoming = store.incoming("d-1")) {
            ArtifactCollector collector = new ArtifactCollector(incoming, 1 << 20, 4 << 20, 10, n -> "/h/" + n);
            offer(collector, "notes.txt", "hello\n".getBytes(StandardCharsets.UTF_8));
            offer(collector, "nested/blob", binary);
            incoming.commit();
            artifacts = collector.result(null);
        }

        assertThat(artifacts.refused()).isNull();
        assertThat(artifacts.kept())
                .containsExactly(
                        new Artifact(
                                "notes.txt",
                                6,
                                sha256("hello\n".getBytes(StandardCharsets.UTF_8)),
                                "text/plain; charset=utf-8",
                                "/h/notes.txt"),
                        new Artifact(
                                "nested/blob",
                                binary.length,
                                sha256(binary),
                                "application/octet-stream",
                                "/h/nested/blob"));
        assertThat(Files.readAllBytes(store.file("d-1", "nested/blob").orElseThrow()))
                .isEqualTo(binary);
        assertThat(store.file("d-1", "missing")).isEmpty();
    }

    @Test
    void boundsRefuseFilesByTheirSizeTheTotalAndTheCountAndNameTheFirstTwenty() throws Exception {
        ArtifactStore store = store();
        Artifacts artifacts;
        try (ArtifactStore.Incoming incoming = store.incoming("d-2")) {
            ArtifactCollector collector = new ArtifactCollector(incoming, 100, 250, 3, n -> n);
            offer(collector, "too-large", new byte[101]);
            offer(collector, "a", new byte[100]);
            offer(collector, "b", new byte[100]);
            offer(collector, "over-total", new byte[51]);
            offer(collector, "c", new byte[50]);
            offer(collector, "over-count", new byte[1]);
            collector.refused("link", OutArchive.Refusal.LINK);
            collector.refused("../up", OutArchive.Refusal.UNSAFE_NAME);
            collector.refused("fifo", OutArchive.Refusal.SPECIAL);
            for (int i = 0; i < 30; i++) {
                offer(collector, "small-" + i, new byte[1]);
            }
            collector.file("bell\u0007" + "x".repeat(400), 1, null);
            incoming.commit();
            artifacts = collector.result("cut short");
        }

        assertThat(artifacts.kept()).extracting(Artifact::name).containsExactly("a", "b", "c");
        ArtifactsRefused refused = artifacts.refused();
        assertThat(refused.count()).isEqualTo(37);
        assertThat(refused.detail()).isEqualTo("cut short");
        assertThat(refused.entries()).hasSize(ArtifactsRefused.SHOWN);
        assertThat(refused.entries().subList(0, 6))
                .containsExactly(
                        new ArtifactsRefused.Entry("too-large", ArtifactsRefused.Reason.TOO_LARGE),
                        new ArtifactsRefused.Entry("over-total", ArtifactsRefused.Reason.OVER_TOTAL),
                        new ArtifactsRefused.Entry("over-count", ArtifactsRefused.Reason.OVER_COUNT),
                        new ArtifactsRefused.Entry("link", ArtifactsRefused.Reason.LINK),
                        new ArtifactsRefused.Entry("../up", ArtifactsRefused.Reason.UNSAFE_NAME),
                        new ArtifactsRefused.Entry("fifo", ArtifactsRefused.Reason.SPECIAL));
        try (var files = Files.list(root.resolve("d-2"))) {
            assertThat(files.count()).isEqualTo(3); // nothing refused reached the disk
        }
    }

    @Test
    void aFileThatWouldBeKeptButCannotBeReadWithinTheBoundIsUnread() throws Exception {
        try (ArtifactStore.Incoming incoming = store().incoming("d-5")) {
            ArtifactCollector collector = new ArtifactCollector(incoming, 100, 1000, 10, n -> n);
            collector.file("late", 50, null);
            collector.file("late-and-large", 500, null);
            assertThat(collector.result("the read ended").refused().entries())
                    .containsExactly(
                            new ArtifactsRefused.Entry("late", ArtifactsRefused.Reason.UNREAD),
                            new ArtifactsRefused.Entry("late-and-large", ArtifactsRefused.Reason.TOO_LARGE));
        }
    }

    @Test
    void refusedNamesArePrintableAndShort() {
        assertThat(ArtifactCollector.printable("a\u0007b\u007f")).isEqualTo("a?b?");
        assertThat(ArtifactCollector.printable("x".repeat(1000))).hasSize(256);
    }

    @Test
    void aFileThatEndsBeforeItsStatedSizeLeavesNothingBehind() throws Exception {
        ArtifactStore store = store();
        try (ArtifactStore.Incoming incoming = store.incoming("d-3")) {
            ArtifactCollector collector = new ArtifactCollector(incoming, 100, 1000, 10, n -> n);
            try {
                collector.file("short", 50, new ByteArrayInputStream(new byte[10]));
            } catch (IOException expected) {
                // the walk ends with it
            }
            assertThat(collector.keptAny()).isFalse();
        }
        try (var left = Files.list(root)) {
            assertThat(left.count()).isZero(); // an incoming directory not committed is deleted
        }
    }

    @Test
    void aCommitReplacesWhatAnEarlierReadKeptAndTheSweepTakesWhatOutlivedTheRetention() throws Exception {
        ArtifactStore store = store();
        for (String content : new String[] {"first", "second"}) {
            try (ArtifactStore.Incoming incoming = store.incoming("d-4")) {
                ArtifactCollector collector = new ArtifactCollector(incoming, 100, 1000, 10, n -> n);
                offer(collector, "f", content.getBytes(StandardCharsets.UTF_8));
                incoming.commit();
            }
        }
        assertThat(Files.readString(store.file("d-4", "f").orElseThrow())).isEqualTo("second");
        assertThat(store.holds("d-4")).isTrue();

        clock.advance(Duration.ofMinutes(59));
        assertThat(store.sweep()).isZero();
        clock.advance(Duration.ofMinutes(2));
        assertThat(store.sweep()).isEqualTo(1);
        assertThat(store.holds("d-4")).isFalse();
        assertThat(store.file("d-4", "f")).isEmpty();
    }

    @Test
    void namesNeverBecomePathsOfTheWorkersDisk() throws Exception {
        ArtifactStore store = store();
        assertThat(ArtifactStore.fileName("../../etc/passwd")).matches("[0-9a-f]{64}");
        assertThat(store.file("../etc", "passwd")).isEmpty();
        assertThat(store.holds("..")).isFalse();
    }

    private static void offer(ArtifactCollector collector, String name, byte[] data) throws IOException {
        collector.file(name, data.length, new ByteArrayInputStream(data));
    }

    private static String sha256(byte[] data) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    }
}
