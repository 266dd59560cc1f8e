package dev.sluice.artifact;

import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * Artifacts against the real engine (ADR 0029): what an agent really leaves
 * under /sluice/out/artifacts/, listed in the result with sizes and SHA-256
 * computed here, served whole and by range; and what a hostile agent leaves
 * there, refused and recorded, never failing the dispatch nor costing more
 * than the bounds (1 MiB a file, 4 MiB in all, 50 files in this profile).
 */
@QuarkusTest
@TestProfile(Profiles.SmallArtifacts.class)
class ArtifactsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Where this run's worker keeps artifacts: each test JVM has its own directory. */
    private static final Path KEPT = Path.of(ConfigProvider.getConfig().getValue("sluice.artifacts.dir", String.class));

    private static final String NOTES = "hello artifacts\n";
    private static final String REPORT = "{\"ok\":true}";

    @Test
    void filesTheAgentLeavesAreListedHashedAndServedWholeAndByRange() throws Exception {
        JsonPath record = awaitTerminal(submit(script("cd /sluice/out && mkdir -p artifacts/nested/deeper"
                + " && printf 'hello artifacts\\n' > artifacts/notes.txt"
                + " && seq 1 50000 | tr '\\n' '\\0' > artifacts/data.bin"
                + " && printf '{\"ok\":true}' > artifacts/nested/deeper/report.json"
                + " && printf x > 'artifacts/nested/with space'")));
        String id = record.getString("id");
        byte[] binary = numbers();

        assertThat(record.getString("status")).isEqualTo("succeeded");
        List<Map<String, Object>> artifacts = record.getList("result.artifacts");
        assertThat(artifacts)
                .extracting(a -> a.get("name"))
                .containsExactlyInAnyOrder("notes.txt", "data.bin", "nested/deeper/report.json", "nested/with space");
        assertThat(artifact(artifacts, "notes.txt"))
                .containsEntry("size", NOTES.length())
                .containsEntry("sha256", sha256(NOTES.getBytes(StandardCharsets.UTF_8)))
                .containsEntry("mediaType", "text/plain; charset=utf-8")
                .containsEntry("href", "/v1/dispatches/" + id + "/artifacts/notes.txt");
        assertThat(artifact(artifacts, "data.bin"))
                .containsEntry("size", binary.length)
                .containsEntry("sha256", sha256(binary))
                .containsEntry("mediaType", "application/octet-stream");
        assertThat(artifact(artifacts, "nested/deeper/report.json"))
                .containsEntry("sha256", sha256(REPORT.getBytes(StandardCharsets.UTF_8)))
                .containsEntry("mediaType", "application/json");
        assertThat(artifact(artifacts, "nested/with space"))
                .containsEntry("href", "/v1/dispatches/" + id + "/artifacts/nested/with%20space");
        assertThat(record.getString("result.artifactsRefused")).isNull();
        JsonNode digest =
                JSON.readTree(given().get("/v1/dispatches/" + id + "/digest").asByteArray());
        assertThat(digest.path("artifacts").asInt()).isEqualTo(4);

        for (Map<String, Object> artifact : artifacts) {
            Response whole = read((String) artifact.get("href"), null);
            assertThat(whole.statusCode()).isEqualTo(200);
            assertThat(whole.contentType()).isEqualTo(artifact.get("mediaType"));
            assertThat(whole.header("Accept-Ranges")).isEqualTo("bytes");
            assertThat(sha256(whole.asByteArray())).isEqualTo(artifact.get("sha256"));
        }

        Response head = read("/v1/dispatches/" + id + "/artifacts/notes.txt", "bytes=0-4");
        assertThat(head.statusCode()).isEqualTo(206);
        assertThat(head.asString()).isEqualTo("hello");
        assertThat(head.header("Content-Range")).isEqualTo("bytes 0-4/16");
        Response middle = read("/v1/dispatches/" + id + "/artifacts/data.bin", "bytes=100000-100099");
        assertThat(middle.statusCode()).isEqualTo(206);
        assertThat(middle.asByteArray()).isEqualTo(java.util.Arrays.copyOfRange(binary, 100_000, 100_100));
        Response tail = read("/v1/dispatches/" + id + "/artifacts/data.bin", "bytes=-6");
        assertThat(tail.asByteArray()).isEqualTo("50000\0".getBytes(StandardCharsets.US_ASCII));
        Response past = read("/v1/dispatches/" + id + "/artifacts/notes.txt", "bytes=16-");
        assertThat(past.statusCode()).isEqualTo(416);
        assertThat(past.contentType()).isEqualTo("application/problem+json");
        assertThat(past.header("Content-Range")).isEqualTo("bytes */16");

        Response unknown = read("/v1/dispatches/" + id + "/artifacts/nested/absent.txt", null);
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.jsonPath().getString("title")).isEqualTo("Artifact not found");
        assertThat(read("/v1/dispatches/" + id + "/artifacts/nested", null).statusCode())
                .isEqualTo(404); // a directory is no artifact
        assertThat(read("/v1/dispatches/no-such-dispatch/artifacts/notes.txt", null)
                        .statusCode())
                .isEqualTo(404);
    }

    @Test
    void aDispatchWithoutArtifactsListsNoneAndServesNothing() {
        JsonPath record = awaitTerminal(submit(script("echo nothing kept")));
        String id = record.getString("id");
        assertThat(record.getList("result.artifacts")).isEmpty();
        assertThat(record.getString("result.artifactsRefused")).isNull();
        assertThat(read("/v1/dispatches/" + id + "/artifacts/anything", null).statusCode())
                .isEqualTo(404);
        assertThat(KEPT.resolve(id)).doesNotExist();
    }

    @Test
    void linksFifosAndStrangeNamesAreRefusedAndRecordedNeverFollowed() {
        JsonPath record = awaitTerminal(submit(script("cd /sluice/out && mkdir artifacts"
                + " && echo fine > artifacts/fine.txt"
                + " && ln -s /etc/passwd artifacts/passwd"
                + " && ln artifacts/fine.txt artifacts/hardlink"
                + " && mkfifo artifacts/fifo"
                + " && printf x > \"$(printf 'artifacts/new\\nline')\""
                + " && echo done")));

        assertThat(record.getString("status")).isEqualTo("succeeded");
        assertThat(record.getString("result.stdout")).isEqualTo("done\n");
        List<Map<String, Object>> artifacts = record.getList("result.artifacts");
        // Of two names for one file the archive gives the first as the file and the second as a hard link.
        assertThat(artifacts).hasSize(1);
        assertThat(artifacts.get(0).get("name")).isIn("fine.txt", "hardlink");
        assertThat(record.getInt("result.artifactsRefused.count")).isEqualTo(4);
        List<Map<String, String>> entries = record.getList("result.artifactsRefused.entries");
        assertThat(entries)
                .extracting(e -> e.get("name") + ": " + e.get("reason"))
                .containsExactlyInAnyOrder(
                        "passwd: link",
                        (artifacts.get(0).get("name").equals("fine.txt") ? "hardlink" : "fine.txt") + ": link",
                        "fifo: special",
                        "new?line: unsafe-name");
        assertThat(record.getString("result.artifactsRefused.detail")).isNull();
        assertThat(record.prettify()).doesNotContain("root:");
    }

    @Test
    void aGibibyteFileEndsTheReadFromItsSizeAloneAndNothingIsKept() {
        // Sparse: a gibibyte as the archive states it, without the engine's disk paying for it.
        JsonPath record = awaitTerminal(submit(
                script("mkdir /sluice/out/artifacts && dd if=/dev/zero of=/sluice/out/artifacts/huge.bin bs=1 count=0"
                        + " seek=1073741824 2>/dev/null; wc -c < /sluice/out/artifacts/huge.bin")));

        assertThat(record.getString("status")).isEqualTo("succeeded");
        assertThat(record.getString("result.stdout").trim()).isEqualTo("1073741824");
        assertThat(record.getList("result.artifacts")).isEmpty();
        assertThat(record.getInt("result.artifactsRefused.count")).isEqualTo(1);
        assertThat(record.getString("result.artifactsRefused.entries[0].name")).isEqualTo("huge.bin");
        assertThat(record.getString("result.artifactsRefused.entries[0].reason"))
                .isEqualTo("too-large");
        assertThat(record.getString("result.artifactsRefused.detail"))
                .contains("huge.bin (1073741824 bytes) and what follows it were not read");
        assertThat(KEPT.resolve(record.getString("id"))).doesNotExist();
    }

    @Test
    void tenThousandFilesKeepTheCountAndTheRestIsCountedWithinTheReadsBound() throws Exception {
        JsonPath record = awaitTerminal(submit(script("mkdir -p /sluice/out/artifacts && cd /sluice/out/artifacts"
                + " && i=0; while [ $i -lt 10000 ]; do echo $i > f$i; i=$((i+1)); done; echo written")));

        assertThat(record.getString("status")).isEqualTo("succeeded");
        assertThat(record.getString("result.stdout")).isEqualTo("written\n");
        assertThat(record.getList("result.artifacts")).hasSize(50);
        int refused = record.getInt("result.artifactsRefused.count");
        assertThat(refused).isPositive();
        List<Map<String, String>> entries = record.getList("result.artifactsRefused.entries");
        assertThat(entries)
                .hasSize(20)
                .allSatisfy(e -> assertThat(e.get("reason")).isEqualTo("over-count"));
        if (refused < 9950) {
            // The archive's bound (4 MiB, and 16 KiB of headers per file of the count) ended the read.
            assertThat(record.getString("result.artifactsRefused.detail")).contains("bound");
        }
        try (var kept = Files.list(KEPT.resolve(record.getString("id")))) {
            assertThat(kept.count()).isEqualTo(50);
        }
    }

    @Test
    void filesOverTheirBoundOrTheTotalAreRefusedAndTheOthersKept() {
        JsonPath record = awaitTerminal(submit(script("mkdir -p /sluice/out/artifacts && cd /sluice/out/artifacts"
                + " && head -c 1048577 /dev/zero > too-large"
                + " && for n in 1 2 3 4 5; do head -c 1000000 /dev/zero > part$n; done")));

        assertThat(record.getString("status")).isEqualTo("succeeded");
        List<Map<String, Object>> artifacts = record.getList("result.artifacts");
        assertThat(artifacts).hasSize(4); // 4 x 1 000 000 bytes within 4 MiB, a fifth not
        assertThat(artifacts).allSatisfy(a -> assertThat(a.get("size")).isEqualTo(1_000_000));
        // Refused data counts towards the read's bound, so whichever of the two comes last ends the read.
        List<Map<String, String>> entries = record.getList("result.artifactsRefused.entries");
        assertThat(entries)
                .extracting(e -> e.get("name") + ": " + e.get("reason"))
                .hasSize(2)
                .contains("too-large: too-large")
                .anyMatch(e -> e.matches("part[1-5]: over-total"));
    }

    private static Response read(String href, String range) {
        var request = given().urlEncodingEnabled(false);
        if (range != null) {
            request = request.header("Range", range);
        }
        return request.get(href);
    }

    private static Map<String, Object> artifact(List<Map<String, Object>> artifacts, String name) {
        return artifacts.stream()
                .filter(a -> a.get("name").equals(name))
                .findFirst()
                .orElseThrow();
    }

    /** What {@code seq 1 50000 | tr '\n' '\0'} writes. */
    private static byte[] numbers() {
        StringBuilder text = new StringBuilder();
        for (int i = 1; i <= 50000; i++) {
            text.append(i).append('\0');
        }
        return text.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
