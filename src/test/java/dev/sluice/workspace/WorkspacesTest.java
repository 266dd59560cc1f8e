package dev.sluice.workspace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sluice.outbound.AddressPolicy;
import dev.sluice.outbound.CallbackUrlPolicy;

/**
 * The checks a workspace passes at intake, on hostile archives and files
 * built here: each refusal names the field and the entry, and leaves no file.
 */
class WorkspacesTest {

    private static final WorkspaceLimits LIMITS = new WorkspaceLimits(64 * 1024, 20, 100);

    @TempDir
    Path dir;

    private Workspaces workspaces() {
        return new Workspaces(
                LIMITS,
                new WorkspaceFiles(dir),
                new CallbackUrlPolicy(new AddressPolicy(List.of())),
                null,
                new KeptBytes(Long.MAX_VALUE, Long.MAX_VALUE));
    }

    @Test
    void filesAndAnArchiveBecomeOneTarWithParentsFirstAndModesKept() throws Exception {
        byte[] archive = tar(List.of(file("./lib/x.txt", "x\n", 0755), symlink("lib/y", "x.txt")));
        var request = new WorkspaceRequest(
                List.of(
                        new WorkspaceRequest.File("src/A.java", "class A {}\n", null, "0640"),
                        new WorkspaceRequest.File("bin/run", base64("#!/bin/sh\n"), "base64", "755")),
                new WorkspaceRequest.Archive(Base64.getEncoder().encodeToString(archive), null, null));
        Workspaces workspaces = workspaces();

        Workspaces.Staged staged = workspaces.stage(request);
        workspaces.keep(staged, "t-1");
        staged.close();

        assertThat(staged.source().kept()).isTrue();
        List<String> entries = new ArrayList<>();
        try (InputStream in = Files.newInputStream(dir.resolve("t-1.tar"));
                TarArchiveInputStream tar = new TarArchiveInputStream(in)) {
            for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                entries.add(e.getName() + " " + Integer.toOctalString(e.getMode() & 07777) + " "
                        + (e.isSymbolicLink() ? "-> " + e.getLinkName() : new String(tar.readAllBytes())));
            }
        }
        assertThat(entries)
                .containsExactly(
                        "lib/ 755 ",
                        "lib/x.txt 755 x\n",
                        "lib/y 644 -> x.txt",
                        "src/ 755 ",
                        "src/A.java 640 class A {}\n",
                        "bin/ 755 ",
                        "bin/run 755 #!/bin/sh\n");
    }

    @Test
    void hostileArchiveEntriesAreRefusedByNameAndLeaveNothing() throws Exception {
        assertRefused(tar(List.of(file("/etc/passwd", "x", 0644))), "entry \"/etc/passwd\": must be relative");
        assertRefused(tar(List.of(file("a/../../x", "x", 0644))), "entry \"a/../../x\": must not contain ..");
        assertRefused(tar(List.of(symlink("out", "../../etc"))), "entry \"out\": is a link that points outside");
        assertRefused(tar(List.of(symlink("abs", "/etc/passwd"))), "entry \"abs\": is a link to an absolute path");
        assertRefused(tar(List.of(hardlink("h", "/etc/shadow"))), "entry \"h\": must be relative, not absolute");
        assertRefused(
                tar(List.of(file("a", "x", 0644), hardlink("h", "b"))),
                "entry \"h\": is a hard link to something that is not a file given before it");
        assertRefused(tar(List.of(hardlink("h", "../x"))), "entry \"h\": must not contain ..");
        assertRefused(tar(List.of(special("dev", TarConstants.LF_CHR))), "entry \"dev\": is a device or a FIFO");
        assertRefused(tar(List.of(special("blk", TarConstants.LF_BLK))), "entry \"blk\": is a device or a FIFO");
        assertRefused(tar(List.of(special("fifo", TarConstants.LF_FIFO))), "entry \"fifo\": is a device or a FIFO");
        assertRefused(
                tar(List.of(symlink("d", "."), file("d/x", "x", 0644))), "entry \"d/x\": lies under a file or a link");
        assertRefused(tar(List.of(file("x", "1", 0644), file("x", "2", 0644))), "entry \"x\": is given twice");
    }

    /**
     * Each target is inside the workspace when read alone; through the links
     * the workspace holds, wherever they were placed, it leads out (issue 38).
     */
    @Test
    void aLinkThatLeavesThroughAnotherLinkIsRefusedWhicheverComesFirst() throws Exception {
        assertRefused(
                tar(List.of(symlink("d/l", ".."), symlink("x", "d/l/../.."))),
                "entry \"x\": is a link that leads outside the workspace through the links it passes");
        // Placed the other way round: d/l did not exist yet when x was placed.
        assertRefused(
                tar(List.of(symlink("x", "d/l/../.."), symlink("d/l", ".."))),
                "entry \"x\": is a link that leads outside the workspace");
        // Two links deep, and a link to a link whose target then climbs.
        assertRefused(
                tar(List.of(symlink("a/b/up", "../.."), symlink("c/to", "../a/b/up"), symlink("y", "c/to/.."))),
                "entry \"y\": is a link that leads outside the workspace");
        // Of two links that lead out, the one placed first is named, here the one that passes the other.
        assertRefused(
                tar(List.of(symlink("z", "e/m/x"), symlink("d/l", ".."), symlink("e/m", "../d/l/.."))),
                "entry \"z\": is a link that leads outside the workspace");
    }

    @Test
    void linksThatStayInsideThroughOtherLinksAreKept() throws Exception {
        byte[] archive = tar(List.of(
                file("src/a.txt", "a", 0644),
                symlink("d/l", ".."),
                symlink("x", "d/l/src/a.txt"),
                symlink("y", "d/l/d/l/d"),
                symlink("loop1", "loop2"),
                symlink("loop2", "loop1"),
                symlink("dangling", "nothing/here/..")));
        var request = new WorkspaceRequest(
                null, new WorkspaceRequest.Archive(Base64.getEncoder().encodeToString(archive), null, null));
        assertThat(workspaces().stage(request).source().kept()).isTrue();
    }

    @Test
    void aChainLongerThanTheKernelFollowsIsRefused() throws Exception {
        List<TarArchiveEntry> chain = new ArrayList<>();
        chain.add(symlink("l0", "."));
        for (int i = 1; i <= WorkspaceLinks.MAX_FOLLOWS + 1; i++) {
            chain.add(symlink("l" + i, "l" + (i - 1)));
        }
        WorkspaceLimits roomy = new WorkspaceLimits(64 * 1024, 100, 100);
        var request = new WorkspaceRequest(
                null, new WorkspaceRequest.Archive(Base64.getEncoder().encodeToString(tar(chain)), null, null));
        assertThatThrownBy(() -> new Workspaces(
                                roomy,
                                new WorkspaceFiles(dir),
                                new CallbackUrlPolicy(new AddressPolicy(List.of())),
                                null,
                                new KeptBytes(Long.MAX_VALUE, Long.MAX_VALUE))
                        .stage(request))
                .isInstanceOf(WorkspaceRefused.class)
                .hasMessageContaining("entry \"l41\": is a link that leads through more than 40 links");
        assertThat(dir.toFile().list()).isEmpty();
    }

    @Test
    void boundsOnEntriesBytesAndPathsHold() throws Exception {
        List<TarArchiveEntry> many = new ArrayList<>();
        for (int i = 0; i < 21; i++) {
            many.add(file("f" + i, "x", 0644));
        }
        assertRefused(tar(many), "entry \"f20\": makes the workspace more than 20 entries");
        assertRefused(
                tar(List.of(file("big", "x".repeat(64 * 1024 + 1), 0644))),
                "entry \"big\": makes the workspace larger than 65536 bytes");
        assertRefused(tar(List.of(file("p".repeat(101), "x", 0644))), "is longer than 100 bytes");
    }

    /** A gzip of 64 MiB of zeros in one file's data: reading stops at the bound, long before the end. */
    @Test
    void aGzipBombStopsAtTheBound() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes);
                TarArchiveOutputStream tar = new TarArchiveOutputStream(gz)) {
            tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
            TarArchiveEntry bomb = new TarArchiveEntry("bomb");
            bomb.setSize(64L << 20);
            tar.putArchiveEntry(bomb);
            byte[] zeros = new byte[1 << 20];
            for (int i = 0; i < 64; i++) {
                tar.write(zeros);
            }
            tar.closeArchiveEntry();
        }
        assertThat(bytes.size()).isLessThan(128 * 1024);
        assertRefused(bytes.toByteArray(), "entry \"bomb\": makes the workspace larger than 65536 bytes");

        // A bomb in the headers: an extended header of 64 MiB, read only up to the bound.
        ByteArrayOutputStream pax = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(pax);
                TarArchiveOutputStream tar = new TarArchiveOutputStream(gz)) {
            tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
            TarArchiveEntry header = new TarArchiveEntry("h", TarConstants.LF_PAX_EXTENDED_HEADER_LC, true);
            header.setSize(64L << 20);
            tar.putArchiveEntry(header);
            byte[] sevens = new byte[1 << 20];
            java.util.Arrays.fill(sevens, (byte) '7');
            for (int i = 0; i < 64; i++) {
                tar.write(sevens);
            }
            tar.closeArchiveEntry();
        }
        assertRefused(pax.toByteArray(), "once decompressed");
    }

    @Test
    void inlineFilesAreRefusedByIndex() {
        assertFileRefused(new WorkspaceRequest.File("/abs", "x", null, null), "workspace.files.0.path");
        assertFileRefused(new WorkspaceRequest.File("a/../../b", "x", null, null), "workspace.files.0.path");
        assertFileRefused(new WorkspaceRequest.File("nul\0", "x", null, null), "workspace.files.0.path");
        assertFileRefused(new WorkspaceRequest.File("a", "x", null, "4755"), "workspace.files.0.mode");
        assertFileRefused(new WorkspaceRequest.File("a", "x", null, "rwx"), "workspace.files.0.mode");
        assertFileRefused(new WorkspaceRequest.File("a", "%%%", "base64", null), "workspace.files.0.content");
        assertFileRefused(new WorkspaceRequest.File("a", "x", "latin1", null), "workspace.files.0.encoding");
    }

    @Test
    void anArchiveUrlMustBeHttpsWithADigestAndAnAddressTheGuardAllows() {
        String sha = "0".repeat(64);
        assertUrlRefused(new WorkspaceRequest.Archive(null, "http://example.com/a.tar", sha), "workspace.archive.url");
        assertUrlRefused(
                new WorkspaceRequest.Archive(null, "https://example.com/a.tar", null), "workspace.archive.sha256");
        assertUrlRefused(
                new WorkspaceRequest.Archive(null, "https://127.0.0.1/a.tar", sha),
                "workspace.archive.url: points at an address callbacks may not reach");
        assertUrlRefused(
                new WorkspaceRequest.Archive(null, "https://169.254.169.254/a.tar", sha), "workspace.archive.url");
        assertUrlRefused(new WorkspaceRequest.Archive("AAAA", "https://example.com/a", sha), "workspace.archive");

        var ok = workspaces()
                .stage(new WorkspaceRequest(null, new WorkspaceRequest.Archive(null, "https://example.com/a", sha)));
        assertThat(ok.source())
                .isEqualTo(new dev.sluice.record.DispatchSpec.Workspace(false, "https://example.com/a", sha));
    }

    private void assertUrlRefused(WorkspaceRequest.Archive archive, String message) {
        assertThatThrownBy(() -> workspaces().stage(new WorkspaceRequest(null, archive)))
                .isInstanceOf(WorkspaceRefused.class)
                .hasMessageContaining(message);
    }

    private void assertFileRefused(WorkspaceRequest.File file, String field) {
        assertThatThrownBy(() -> workspaces().stage(new WorkspaceRequest(List.of(file), null)))
                .isInstanceOf(WorkspaceRefused.class)
                .extracting(e -> ((WorkspaceRefused) e).field())
                .isEqualTo(field);
        assertThat(dir.toFile().list()).isEmpty();
    }

    private void assertRefused(byte[] archive, String detail) {
        var request = new WorkspaceRequest(
                null, new WorkspaceRequest.Archive(Base64.getEncoder().encodeToString(archive), null, null));
        assertThatThrownBy(() -> workspaces().stage(request))
                .isInstanceOf(WorkspaceRefused.class)
                .satisfies(e -> {
                    assertThat(((WorkspaceRefused) e).field()).isEqualTo("workspace.archive");
                    assertThat(((WorkspaceRefused) e).detail()).contains(detail);
                });
        assertThat(dir.toFile().list()).as("files left by a refusal").isEmpty();
    }

    static TarArchiveEntry file(String name, String content, int mode) {
        TarArchiveEntry e = new TarArchiveEntry(name, true);
        e.setMode(TarArchiveEntry.DEFAULT_FILE_MODE & ~0777 | mode);
        byte[] data = content.getBytes(StandardCharsets.UTF_8);
        e.setSize(data.length);
        CONTENT.put(e, data);
        return e;
    }

    static TarArchiveEntry symlink(String name, String target) {
        TarArchiveEntry e = new TarArchiveEntry(name, TarConstants.LF_SYMLINK, true);
        e.setLinkName(target);
        return e;
    }

    static TarArchiveEntry hardlink(String name, String target) {
        TarArchiveEntry e = new TarArchiveEntry(name, TarConstants.LF_LINK, true);
        e.setLinkName(target);
        return e;
    }

    static TarArchiveEntry special(String name, byte type) {
        return new TarArchiveEntry(name, type, true);
    }

    /** A tar of these entries, each file with the content given to {@link #file}. */
    static byte[] tar(List<TarArchiveEntry> entries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (TarArchiveEntry e : entries) {
                tar.putArchiveEntry(e);
                if (e.isFile() && !e.isLink() && e.getSize() > 0) {
                    tar.write(CONTENT.get(e));
                }
                tar.closeArchiveEntry();
            }
        }
        return out.toByteArray();
    }

    private static final java.util.Map<TarArchiveEntry, byte[]> CONTENT = new java.util.IdentityHashMap<>();

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}
