package dev.sluice.workspace;

import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.newest;
import static dev.sluice.testsupport.Dispatches.post;
import static dev.sluice.testsupport.Dispatches.submit;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.junit.jupiter.api.Test;

import dev.sluice.hashing.Sha256;
import dev.sluice.testsupport.ArchiveServer;
import dev.sluice.testsupport.Profiles;
import dev.sluice.testsupport.TestDocker;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * Workspaces against the real engine, with the hardened defaults (read-only
 * root, the numeric user 65534, no capabilities): what the agent finds in its
 * working directory is exactly what was handed in, byte for byte, and it may
 * write there; hostile workspaces are refused with 422 and create nothing;
 * an archive by URL is fetched from a real HTTPS server, and a wrong digest
 * ends the dispatch with a reason that says so.
 */
@QuarkusTest
@TestProfile(Profiles.Workspace.class)
class WorkspaceIT {

    private static final Path KEPT = Path.of("target/workspace-it/workspaces");
    private static final String LIST = "find . -type f | sort | xargs sha256sum";

    @Test
    void aRepositoryOf2000FilesArrivesExactly() throws Exception {
        TreeMap<String, byte[]> files = repository(2000);
        byte[] archive = gzip(tar(files));

        JsonPath record = awaitTerminal(submit(Map.of(
                "image", TestDocker.AGENT_IMAGE,
                "command", List.of("sh", "-c", LIST),
                "workspace", Map.of("archive", Map.of("base64", base64(archive))))));

        assertThat(record.getString("status")).isEqualTo("succeeded");
        assertSameBytes(record.getString("result.stdout"), listing(files));
        assertThat(KEPT).isEmptyDirectory(); // deleted when the dispatch ended
    }

    @Test
    void inlineFilesKeepTheirModesAndTheAgentWritesBesideThem() {
        Map<String, Object> workspace = Map.of(
                "files",
                List.of(
                        Map.of("path", "src/A.java", "content", "class A {}\n", "mode", "0640"),
                        Map.of(
                                "path", "bin/run.sh",
                                "content", base64("#!/bin/sh\necho ran\n".getBytes(StandardCharsets.UTF_8)),
                                "encoding", "base64",
                                "mode", "0755")));
        JsonPath record = awaitTerminal(submit(Map.of(
                "image",
                TestDocker.AGENT_IMAGE,
                "command",
                List.of(
                        "sh",
                        "-c",
                        "pwd; stat -c '%a %u:%g %n' . src src/A.java bin/run.sh; ./bin/run.sh;"
                                + " echo new > made.txt && cat made.txt; echo more >> src/A.java && cat src/A.java;"
                                + " touch /outside 2>/dev/null || echo root is read-only"),
                "workspace",
                workspace)));

        assertThat(record.getString("status")).isEqualTo("succeeded");
        assertThat(record.getString("result.stdout"))
                .isEqualTo("/work\n1777 65534:65534 .\n755 65534:65534 src\n640 65534:65534 src/A.java\n"
                        + "755 65534:65534 bin/run.sh\nran\nnew\nclass A {}\nmore\nroot is read-only\n");
    }

    @Test
    void hostileWorkspacesAre422NamingTheEntryAndCreateNothing() throws Exception {
        String before = newest();
        assertRefused(
                archive(file("/etc/passwd", "x")), "workspace.archive", "entry \"/etc/passwd\": must be relative");
        assertRefused(archive(file("a/../../x", "x")), "workspace.archive", "entry \"a/../../x\": must not contain ..");
        assertRefused(archive(link("out", "../../etc", true)), "workspace.archive", "points outside the workspace");
        assertRefused(
                archive(link("h", "../etc/shadow", false)), "workspace.archive", "entry \"h\": must not contain ..");
        assertRefused(archive(special("tty", TarConstants.LF_CHR)), "workspace.archive", "is a device or a FIFO");
        assertRefused(archive(special("fifo", TarConstants.LF_FIFO)), "workspace.archive", "is a device or a FIFO");
        assertRefused(
                Map.of("archive", Map.of("base64", base64(gzip(tar(empty(3001)))))),
                "workspace.archive",
                "more than 3000 entries");
        assertRefused(
                Map.of("files", List.of(Map.of("path", "big", "content", "x".repeat((4 << 20) + 1)))),
                "workspace.files.0",
                "larger than 4194304 bytes");
        TreeMap<String, byte[]> bomb = new TreeMap<>(Map.of("zeros", new byte[16 << 20]));
        assertRefused(Map.of("archive", Map.of("base64", base64(gzip(tar(bomb))))), "workspace.archive", "larger than");
        assertRefused(
                Map.of("files", List.of(Map.of("path", "x", "mode", "4755"))), "workspace.files.0.mode", "setuid");
        assertRefused(
                Map.of("archive", Map.of("url", "https://10.1.2.3/a.tar", "sha256", "0".repeat(64))),
                "workspace.archive.url",
                "points at an address callbacks may not reach");

        assertThat(newest()).isEqualTo(before);
        assertThat(KEPT).isEmptyDirectory();
    }

    @Test
    void anArchiveByUrlIsFetchedAndItsDigestChecked() throws Exception {
        TreeMap<String, byte[]> files = repository(50);
        byte[] archive = gzip(tar(files));
        String url = ArchiveServer.shared().put("/repo.tar.gz", archive);

        JsonPath good = awaitTerminal(submit(Map.of(
                "image", TestDocker.AGENT_IMAGE,
                "command", List.of("sh", "-c", LIST),
                "workspace",
                        Map.of(
                                "archive", Map.of("url", url, "sha256", sha256(archive)),
                                "files", List.of(Map.of("path", "BRIEF.md", "content", "fix it\n"))))));
        files.put("BRIEF.md", "fix it\n".getBytes(StandardCharsets.UTF_8));
        assertThat(good.getString("status")).isEqualTo("succeeded");
        assertSameBytes(good.getString("result.stdout"), listing(files));

        JsonPath wrong = awaitTerminal(submit(Map.of(
                "image", TestDocker.AGENT_IMAGE,
                "command", List.of("true"),
                "workspace", Map.of("archive", Map.of("url", url, "sha256", "0".repeat(64))))));
        assertThat(wrong.getString("status")).isEqualTo("error");
        assertThat(wrong.getString("result.error.code")).isEqualTo("workspace_unavailable");
        // Only that it does not match: the digest of what the URL served would tell what is there (issue 38).
        assertThat(wrong.getString("result.error.message"))
                .isEqualTo("the workspace could not be placed: workspace.archive.sha256: does not match the fetched "
                        + "archive");
        assertThat(wrong.prettify()).doesNotContain(sha256(archive));

        String missing = url.replace("repo.tar.gz", "missing.tar.gz");
        JsonPath gone = awaitTerminal(submit(Map.of(
                "image", TestDocker.AGENT_IMAGE,
                "command", List.of("true"),
                "workspace", Map.of("archive", Map.of("url", missing, "sha256", "0".repeat(64))))));
        assertThat(gone.getString("result.error.message"))
                .isEqualTo("the workspace could not be placed: workspace.archive.url: was not found on its server "
                        + "(HTTP 404 or 410)");

        // A server's own words, and its status, stay out of the result: a class of ours stands for them.
        String broken = ArchiveServer.shared()
                .fail("/broken.tar.gz", 502, "upstream 10.20.30.40:8080 refused: internal-build-cache says no");
        JsonPath failed = awaitTerminal(submit(Map.of(
                "image", TestDocker.AGENT_IMAGE,
                "command", List.of("true"),
                "workspace", Map.of("archive", Map.of("url", broken, "sha256", "0".repeat(64))))));
        assertThat(failed.getString("result.error.code")).isEqualTo("workspace_unavailable");
        assertThat(failed.getString("result.error.message"))
                .isEqualTo("the workspace could not be placed: workspace.archive.url: was not served: its server "
                        + "answered neither 200 nor 401, 403, 404 or 410");
        assertThat(failed.prettify()).doesNotContain("10.20.30.40", "internal-build-cache", "502");
        assertThat(KEPT).isEmptyDirectory();
    }

    /**
     * {@code d/l -> ..} then {@code x -> d/l/../..}: each target inside when
     * read alone, the second out through the first (issue 38). Inline, a 422
     * naming the entry; fetched by URL, the dispatch ends without a container.
     */
    @Test
    void aSymlinkChainThatLeavesTheWorkspaceIsRefused() throws Exception {
        String before = newest();
        Map<String, Object> chain = archive(link("d/l", "..", true), link("x", "d/l/../..", true));
        assertRefused(
                chain,
                "workspace.archive",
                "entry \"x\": is a link that leads outside the workspace through the links it passes");
        // Placed the other way round: the first link's target passes a link placed after it.
        assertRefused(
                archive(link("x", "d/l/../..", true), link("d/l", "..", true)),
                "workspace.archive",
                "entry \"x\": is a link that leads outside the workspace");
        assertThat(newest()).isEqualTo(before);

        byte[] tar = Base64.getDecoder()
                .decode(((Map<?, ?>) chain.get("archive")).get("base64").toString());
        String url = ArchiveServer.shared().put("/chain.tar", tar);
        JsonPath fetched = awaitTerminal(submit(Map.of(
                "image", TestDocker.AGENT_IMAGE,
                "command", List.of("true"),
                "workspace", Map.of("archive", Map.of("url", url, "sha256", sha256(tar))))));
        assertThat(fetched.getString("status")).isEqualTo("error");
        assertThat(fetched.getString("result.error.message"))
                .isEqualTo("the workspace could not be placed: workspace.archive: entry \"x\": is a link that leads "
                        + "outside the workspace through the links it passes");
        assertThat(fetched.getString("result.startedAt")).isNull();
        assertThat(KEPT).isEmptyDirectory();
    }

    private static void assertRefused(Map<String, Object> workspace, String field, String detail) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("image", TestDocker.AGENT_IMAGE);
        request.put("workspace", workspace);
        Response response = post(request);
        response.then().statusCode(422);
        assertThat(response.jsonPath().getString("errors[0].field")).as(detail).isEqualTo(field);
        assertThat(response.jsonPath().getString("errors[0].detail")).contains(detail);
    }

    private static void assertSameBytes(String actual, String expected) {
        byte[] a = actual.getBytes(StandardCharsets.UTF_8);
        byte[] e = expected.getBytes(StandardCharsets.UTF_8);
        assertThat(a.length).isEqualTo(e.length);
        assertThat(sha256(a)).isEqualTo(sha256(e));
    }

    /** Files of a repository's shape: directories two deep, sizes from empty to 4 KiB, random bytes. */
    private static TreeMap<String, byte[]> repository(int n) {
        Random random = new Random(n);
        TreeMap<String, byte[]> files = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            byte[] data = new byte[random.nextInt(4096)];
            random.nextBytes(data);
            files.put(String.format("m%02d/p%02d/f%04d.txt", i % 7, i % 40, i), data);
        }
        return files;
    }

    private static TreeMap<String, byte[]> empty(int n) {
        TreeMap<String, byte[]> files = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            files.put(String.format("f%04d", i), new byte[0]);
        }
        return files;
    }

    /** What {@code find . -type f | sort | xargs sha256sum} prints for these files. */
    private static String listing(TreeMap<String, byte[]> files) {
        StringBuilder out = new StringBuilder();
        new TreeMap<>(files)
                .forEach((path, data) ->
                        out.append(sha256(data)).append("  ./").append(path).append('\n'));
        return out.toString();
    }

    private static Map<String, Object> archive(TarArchiveEntry... entries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            for (TarArchiveEntry e : entries) {
                tar.putArchiveEntry(e);
                if (e.getSize() > 0) {
                    tar.write("x".getBytes(StandardCharsets.UTF_8));
                }
                tar.closeArchiveEntry();
            }
        }
        return Map.of("archive", Map.of("base64", base64(out.toByteArray())));
    }

    private static TarArchiveEntry file(String name, String oneByte) {
        TarArchiveEntry e = new TarArchiveEntry(name, true);
        e.setSize(oneByte.length());
        return e;
    }

    private static TarArchiveEntry link(String name, String target, boolean symbolic) {
        TarArchiveEntry e = new TarArchiveEntry(name, symbolic ? TarConstants.LF_SYMLINK : TarConstants.LF_LINK, true);
        e.setLinkName(target);
        return e;
    }

    private static TarArchiveEntry special(String name, byte type) {
        return new TarArchiveEntry(name, type, true);
    }

    private static byte[] tar(TreeMap<String, byte[]> files) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (var file : files.entrySet()) {
                TarArchiveEntry e = new TarArchiveEntry(file.getKey());
                e.setSize(file.getValue().length);
                tar.putArchiveEntry(e);
                tar.write(file.getValue());
                tar.closeArchiveEntry();
            }
        }
        return out.toByteArray();
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        }
        return out.toByteArray();
    }

    private static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    private static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(Sha256.digest().digest(bytes));
    }
}
