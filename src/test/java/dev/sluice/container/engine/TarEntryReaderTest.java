package dev.sluice.container.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.junit.jupiter.api.Test;

/** The archive of one path, as the engine sends it, read within a bound and never through a link. */
class TarEntryReaderTest {

    private static final int MAX = 64 * 1024;

    @Test
    void aRegularFileWithinTheBoundIsRead() throws IOException {
        byte[] tar = tar(entry("report.json", TarConstants.LF_NORMAL), "{\"a\":1}".getBytes(StandardCharsets.UTF_8));
        OutFile file = TarEntryReader.read(new ByteArrayInputStream(tar), "report.json", MAX);
        assertThat(file.state()).isEqualTo(OutFile.State.FOUND);
        assertThat(new String(file.bytes(), StandardCharsets.UTF_8)).isEqualTo("{\"a\":1}");
    }

    @Test
    void linksFifosDevicesAndDirectoriesAreRefusedByTheirType() throws IOException {
        TarArchiveEntry symlink = new TarArchiveEntry("report.json", TarConstants.LF_SYMLINK);
        symlink.setLinkName("/etc/passwd");
        assertThat(refusal(symlink)).isEqualTo("report.json is a symbolic link; only a regular file is read");
        TarArchiveEntry hard = new TarArchiveEntry("report.json", TarConstants.LF_LINK);
        hard.setLinkName("other");
        assertThat(refusal(hard)).isEqualTo("report.json is a hard link; only a regular file is read");
        assertThat(refusal(entry("report.json", TarConstants.LF_FIFO))).contains("is a FIFO");
        assertThat(refusal(entry("report.json", TarConstants.LF_CHR))).contains("is a device");
        assertThat(refusal(new TarArchiveEntry("report.json/"))).contains("is a directory");
    }

    @Test
    void aFileOverTheBoundIsRefusedFromItsHeaderWithoutReadingItsData() throws IOException {
        // A gibibyte stated in the header; the stream behind it would go on for as long.
        TarArchiveEntry huge = entry("report.json", TarConstants.LF_NORMAL);
        huge.setSize(1L << 30);
        EndlessArchive stream = EndlessArchive.afterHeader(huge);

        OutFile file = TarEntryReader.read(stream, "report.json", MAX);

        assertThat(file.state()).isEqualTo(OutFile.State.REFUSED);
        assertThat(file.problem()).isEqualTo("report.json is larger than 65536 bytes");
        assertThat(stream.count).isLessThanOrEqualTo(MAX + TarEntryReader.HEADER_ROOM);
    }

    @Test
    void anArchiveThatRunsPastItsBoundIsNeverReadFurther() {
        // Garbage that is not even a tar: whatever it is, no more than the bound is read.
        EndlessArchive stream = new EndlessArchive(new byte[] {'x'});
        OutFile file = TarEntryReader.read(stream, "report.json", MAX);
        assertThat(file.state()).isIn(OutFile.State.REFUSED, OutFile.State.ABSENT);
        assertThat(stream.count).isLessThanOrEqualTo(MAX + TarEntryReader.HEADER_ROOM);
    }

    @Test
    void anEmptyArchiveHoldsNoFile() {
        assertThat(TarEntryReader.read(new ByteArrayInputStream(new byte[1024]), "report.json", MAX)
                        .state())
                .isEqualTo(OutFile.State.ABSENT);
    }

    private static TarArchiveEntry entry(String name, byte type) {
        return new TarArchiveEntry(name, type);
    }

    private static String refusal(TarArchiveEntry entry) throws IOException {
        OutFile file = TarEntryReader.read(new ByteArrayInputStream(tar(entry, new byte[0])), "report.json", MAX);
        assertThat(file.state()).isEqualTo(OutFile.State.REFUSED);
        return file.problem();
    }

    private static byte[] tar(TarArchiveEntry entry, byte[] content) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream out = new TarArchiveOutputStream(bytes)) {
            if (!entry.isSymbolicLink() && !entry.isLink() && !entry.isDirectory()) {
                entry.setSize(content.length);
            }
            out.putArchiveEntry(entry);
            out.write(content);
            out.closeArchiveEntry();
        }
        return bytes.toByteArray();
    }
}
