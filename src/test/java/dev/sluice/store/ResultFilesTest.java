package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.MutableClock;
import dev.sluice.testsupport.TestStores;

/** Result bodies as files: written whole before a row names them, never overwritten, swept when orphaned. */
class ResultFilesTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");

    private final Jdbc jdbc = TestStores.migrated(TestStores.h2());
    private final MutableClock clock = new MutableClock(T0);
    private final Path dir = temporaryDirectory();
    private final ResultFiles files = new ResultFiles(dir, jdbc, clock);

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory(Path.of("target"), "result-files-");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] json(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static ResultBodies.Content content(byte[] bytes) {
        return out -> out.write(bytes);
    }

    private List<String> namesOnDisk() throws IOException {
        try (var listing = Files.list(dir)) {
            return listing.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aBodyIsWrittenWholeUnderANameOfItsOwnAndReadBackAsAStream() throws IOException {
        byte[] big = new byte[(5 << 20) + 123]; // more than one write slice
        big[big.length - 1] = 'z';
        ResultBodies.Put put = files.put("d-1", content(big));
        assertThat(put.inRow()).isNull();
        assertThat(put.size()).isEqualTo(big.length);
        assertThat(put.file()).startsWith("d-1-").endsWith(".json");
        assertThat(namesOnDisk()).containsExactly(put.file()); // no temporary file left

        StoredBody body = files.read(put.file(), null, put.size(), null).orElseThrow();
        assertThat(body.size()).isEqualTo(big.length);
        try (var in = body.open()) {
            assertThat(in.readAllBytes()).isEqualTo(big);
        }
    }

    @Test
    void twoFinishesOfOneDispatchNeverShareAFileAndTheLoserDiscardsItsOwn() throws IOException {
        ResultBodies.Put winner = files.put("d-1", content(json("{\"a\":1}")));
        ResultBodies.Put loser = files.put("d-1", content(json("{\"a\":2}")));
        assertThat(winner.file()).isNotEqualTo(loser.file());
        files.discard(loser);
        assertThat(namesOnDisk()).containsExactly(winner.file());
        assertThat(files.file(winner.file(), -1).bytes()).isEqualTo(json("{\"a\":1}"));
    }

    @Test
    void onlyNamesThisStoreWritesAreRead() {
        assertThatThrownBy(() -> files.file("../../etc/passwd", -1)).isInstanceOf(StoreException.class);
        files.delete("../outside.json"); // ignored, not resolved
    }

    @Test
    void theSweepDeletesWhatNoRowNamesOnceSettledAndLooksAtEachFileOnce() throws IOException {
        ResultBodies.Put named = files.put("d-named", content(json("{}")));
        ResultBodies.Put orphan = files.put("d-orphan", content(json("{}")));
        Path temporary = dir.resolve("d-x-00000000-0000-0000-0000-000000000000.json.tmp");
        Files.writeString(temporary, "half");
        for (String f :
                List.of(named.file(), orphan.file(), temporary.getFileName().toString())) {
            Files.setLastModifiedTime(dir.resolve(f), FileTime.from(T0.minusSeconds(600)));
        }
        jdbc.update(
                "INSERT INTO dispatches (id, status, image, fingerprint, spec, has_secrets, worker_id, created_at, "
                        + "result_file) VALUES ('d-named', 'succeeded', 'i', 'f', '{}', FALSE, 'w', ?, ?)",
                T0,
                named.file());

        ResultBodies.Put fresh = files.put("d-fresh", content(json("{}"))); // a finish whose row is about to commit
        Files.setLastModifiedTime(dir.resolve(fresh.file()), FileTime.from(T0));

        assertThat(files.sweep(Duration.ofMinutes(1))).isEqualTo(2);
        assertThat(namesOnDisk()).containsExactlyInAnyOrder(named.file(), fresh.file());
        clock.advance(Duration.ofMinutes(5));
        assertThat(files.sweep(Duration.ofMinutes(1))).isEqualTo(1); // the fresh one, now settled and unnamed
        assertThat(namesOnDisk()).containsExactly(named.file());
    }
}
