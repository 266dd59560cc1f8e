package dev.sluice.container.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.junit.jupiter.api.Test;

import dev.sluice.container.engine.EndlessArchive;

/** The walk of the artifacts directory's archive: what it offers, what it refuses by header, and its bound. */
class OutArchiveTest {

    private static final long LIMIT = 1 << 20;

    @Test
    void regularFilesAreOfferedByTheirNameUnderTheDirectoryAndDirectoriesWalkedThrough() throws IOException {
        Recorder seen = walk(
                tar(
                        dir("artifacts/"),
                        file("artifacts/a.txt", "alpha"),
                        dir("artifacts/nested/"),
                        file("artifacts/nested/b.bin", "\u0000\u0001")),
                true);
        assertThat(seen.files).containsExactly(entry("a.txt", "alpha"), entry("nested/b.bin", "\u0000\u0001"));
        assertThat(seen.refused).isEmpty();
        assertThat(seen.end).isEqualTo(new OutArchive.End(true, null));
    }

    @Test
    void linksAreRefusedAndNeverFollowed() throws IOException {
        TarArchiveEntry symlink = new TarArchiveEntry("artifacts/passwd", TarConstants.LF_SYMLINK);
        symlink.setLinkName("/etc/passwd");
        TarArchiveEntry hard = new TarArchiveEntry("artifacts/again", TarConstants.LF_LINK);
        hard.setLinkName("artifacts/a.txt");
        Recorder seen = walk(tar(file("artifacts/a.txt", "alpha"), symlink, hard), true);
        assertThat(seen.files).containsOnlyKeys("a.txt");
        assertThat(seen.refused).containsExactly("passwd: LINK", "again: LINK");
    }

    @Test
    void fifosDevicesAndOtherTypesAreRefused() throws IOException {
        Recorder seen = walk(
                tar(
                        new TarArchiveEntry("artifacts/fifo", TarConstants.LF_FIFO),
                        new TarArchiveEntry("artifacts/tty", TarConstants.LF_CHR),
                        new TarArchiveEntry("artifacts/disk", TarConstants.LF_BLK),
                        new TarArchiveEntry("artifacts/contiguous", TarConstants.LF_CONTIG),
                        file("artifacts/ok", "fine")),
                true);
        assertThat(seen.refused)
                .containsExactly("fifo: SPECIAL", "tty: SPECIAL", "disk: SPECIAL", "contiguous: SPECIAL");
        assertThat(seen.files).containsOnlyKeys("ok");
    }

    @Test
    void namesThatLeaveTheDirectoryOrAreNotPlainAreRefused() throws IOException {
        Recorder seen = walk(
                tar(
                        file("artifacts/../escape", "x"),
                        file("artifacts/a/../../escape", "x"),
                        new TarArchiveEntry("/etc/cron.d/job", true),
                        file("elsewhere/file", "x"),
                        file("artifacts/./dot", "x"),
                        file("artifacts/a//b", "x"),
                        file("artifacts/bell\u0007", "x"),
                        file("artifacts/back\\slash", "x"),
                        dir("artifacts/../up/"),
                        file("artifacts/fine", "kept")),
                true);
        assertThat(seen.refused)
                .containsExactly(
                        "../escape: UNSAFE_NAME",
                        "a/../../escape: UNSAFE_NAME",
                        "/etc/cron.d/job: UNSAFE_NAME",
                        "elsewhere/file: UNSAFE_NAME",
                        "./dot: UNSAFE_NAME",
                        "a//b: UNSAFE_NAME",
                        "bell\u0007: UNSAFE_NAME",
                        "back\\slash: UNSAFE_NAME",
                        "../up/: UNSAFE_NAME");
        assertThat(seen.files).containsOnlyKeys("fine");
    }

    @Test
    void aDirectoryThatIsItselfALinkIsRefusedAsTheDirectory() throws IOException {
        TarArchiveEntry root = new TarArchiveEntry("artifacts", TarConstants.LF_SYMLINK);
        root.setLinkName("/etc");
        Recorder seen = walk(tar(root), true);
        assertThat(seen.refused).containsExactly(".: LINK");
        assertThat(seen.files).isEmpty();
        assertThat(seen.end.complete()).isTrue();
    }

    @Test
    void dataTheVisitorLeavesIsSkippedAndTheWalkGoesOn() throws IOException {
        Recorder seen = walk(tar(file("artifacts/big", "b".repeat(100_000)), file("artifacts/next", "n")), false);
        assertThat(seen.files).containsExactly(entry("big", ""), entry("next", ""));
        assertThat(seen.end.complete()).isTrue();
    }

    @Test
    void aFileWhoseDataWouldPassTheBoundEndsTheWalkBeforeItIsRead() throws IOException {
        TarArchiveEntry huge = new TarArchiveEntry("artifacts/huge");
        huge.setSize(1L << 30);
        EndlessArchive stream = EndlessArchive.afterHeader(huge);
        Recorder seen = new Recorder(true);

        seen.end = OutArchive.walk(stream, "artifacts", LIMIT, seen);

        assertThat(seen.files).containsExactly(entry("huge", "not readable"));
        assertThat(seen.end.complete()).isFalse();
        assertThat(seen.end.problem()).contains("huge (1073741824 bytes) and what follows it were not read");
        assertThat(stream.count).isLessThanOrEqualTo(LIMIT);
    }

    @Test
    void anArchiveLongerThanItsBoundIsNeverReadFurther() {
        EndlessArchive stream = new EndlessArchive(new byte[] {'x'});
        Recorder seen = new Recorder(true);
        OutArchive.End end = OutArchive.walk(stream, "artifacts", LIMIT, seen);
        assertThat(end.complete()).isFalse();
        assertThat(stream.count).isLessThanOrEqualTo(LIMIT);
    }

    @Test
    void safeNamesAreRelativeWithRealSegments() {
        assertThat(OutArchive.safe("a/b.txt")).isTrue();
        assertThat(OutArchive.safe("é/日本.md")).isTrue();
        assertThat(OutArchive.safe("..hidden")).isTrue();
        assertThat(OutArchive.safe("")).isFalse();
        assertThat(OutArchive.safe("a/")).isFalse();
        assertThat(OutArchive.safe("/a")).isFalse();
        assertThat(OutArchive.safe("a/..")).isFalse();
        assertThat(OutArchive.safe("a\nb")).isFalse();
    }

    private static Recorder walk(byte[] tar, boolean read) {
        Recorder recorder = new Recorder(read);
        recorder.end = OutArchive.walk(new ByteArrayInputStream(tar), "artifacts", LIMIT, recorder);
        return recorder;
    }

    private static final class Recorder implements OutArchive.Visitor {
        final boolean read;
        final Map<String, String> files = new LinkedHashMap<>();
        final List<String> refused = new ArrayList<>();
        OutArchive.End end;

        Recorder(boolean read) {
            this.read = read;
        }

        @Override
        public void file(String name, long size, InputStream data) throws IOException {
            if (data == null) {
                files.put(name, "not readable");
            } else {
                files.put(name, read ? new String(data.readNBytes((int) size), StandardCharsets.ISO_8859_1) : "");
            }
        }

        @Override
        public void refused(String name, OutArchive.Refusal refusal) {
            refused.add(name + ": " + refusal);
        }
    }

    private static TarArchiveEntry dir(String name) {
        return new TarArchiveEntry(name);
    }

    private static Object[] file(String name, String content) {
        TarArchiveEntry entry = new TarArchiveEntry(name, true);
        byte[] bytes = content.getBytes(StandardCharsets.ISO_8859_1);
        entry.setSize(bytes.length);
        return new Object[] {entry, bytes};
    }

    private static byte[] tar(Object... entries) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream out = new TarArchiveOutputStream(bytes)) {
            out.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Object e : entries) {
                if (e instanceof Object[] pair) {
                    out.putArchiveEntry((TarArchiveEntry) pair[0]);
                    out.write((byte[]) pair[1]);
                } else {
                    out.putArchiveEntry((TarArchiveEntry) e);
                }
                out.closeArchiveEntry();
            }
        }
        return bytes.toByteArray();
    }
}
