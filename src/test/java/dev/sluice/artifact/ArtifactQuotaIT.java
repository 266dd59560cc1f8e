package dev.sluice.artifact;

import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * Agents that write artifacts past sluice.artifacts.max-disk (6 MiB here),
 * against the real engine (ADR 0055): each dispatch keeps all it wrote, the
 * oldest other dispatch's artifacts are deleted to make room, the disk holds
 * no more than the quota, the evicted dispatch's record still lists what it
 * kept and its artifacts answer 410 saying why, and the others' are served
 * byte for byte.
 */
@QuarkusTest
@TestProfile(Profiles.ArtifactQuota.class)
class ArtifactQuotaIT {

    private static final long MIB = 1 << 20;
    private static final long QUOTA = 6 * MIB;

    @Test
    void anAgentWritingPastTheQuotaEvictsTheOldestOtherDispatchesArtifacts() throws Exception {
        JsonPath first = write("first", 3);
        JsonPath second = write("second", 3);
        assertThat(bytesOnDisk()).isEqualTo(QUOTA);

        JsonPath third = write("third", 2);

        for (JsonPath record : List.of(first, second, third)) {
            assertThat(record.getString("status")).isEqualTo("succeeded");
            assertThat(record.getString("result.artifactsRefused")).isNull();
        }
        assertThat(bytesOnDisk()).isEqualTo(5 * MIB).isLessThanOrEqualTo(QUOTA);
        String firstId = first.getString("id");
        JsonPath firstNow = given().get("/v1/dispatches/" + firstId).jsonPath();
        assertThat(firstNow.getList("result.artifacts", Map.class))
                .isEqualTo(first.getList("result.artifacts", Map.class));

        Response gone = given().get("/v1/dispatches/" + firstId + "/artifacts/first-0.bin");
        assertThat(gone.statusCode()).isEqualTo(410);
        assertThat(gone.contentType()).isEqualTo("application/problem+json");
        assertThat(gone.asString())
                .isEqualTo("{\"type\":\"urn:problem-type:sluice:artifact-gone\","
                        + "\"title\":\"The artifact is no longer kept\",\"status\":410,"
                        + "\"detail\":\"the artifacts of dispatch " + firstId
                        + " were removed to keep sluice.artifacts.max-disk (6291456 bytes)"
                        + " and max-disk-per-tenant (6291456 bytes) for newer dispatches' artifacts\"}");
        for (JsonPath kept : List.of(second, third)) {
            for (Map<String, Object> artifact : kept.<Map<String, Object>>getList("result.artifacts")) {
                byte[] served = given().get((String) artifact.get("href")).asByteArray();
                String name = (String) artifact.get("name");
                assertThat(served).as(name).isEqualTo(content(name));
                assertThat(artifact.get("sha256")).isEqualTo(sha256(content(name)));
            }
        }
    }

    /** A dispatch whose agent leaves {@code files} artifacts of 1 MiB each, named {@code <prefix>-<i>.bin}. */
    private static JsonPath write(String prefix, int files) {
        StringBuilder script = new StringBuilder("mkdir -p /sluice/out/artifacts && cd /sluice/out/artifacts");
        for (int i = 0; i < files; i++) {
            String name = prefix + "-" + i + ".bin";
            script.append(" && yes '")
                    .append(name)
                    .append("' | head -c ")
                    .append(MIB)
                    .append(" > ")
                    .append(name);
        }
        JsonPath record = awaitTerminal(submit(script(script.toString())));
        List<String> names = record.getList("result.artifacts.name");
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < files; i++) {
            expected.add(prefix + "-" + i + ".bin");
        }
        assertThat(names).containsExactlyInAnyOrderElementsOf(expected);
        return record;
    }

    /** What {@code yes NAME | head -c 1M} writes. */
    private static byte[] content(String name) {
        byte[] line = (name + "\n").getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[(int) MIB];
        for (int i = 0; i < out.length; i++) {
            out[i] = line[i % line.length];
        }
        return out;
    }

    private static long bytesOnDisk() throws IOException {
        try (Stream<Path> files = Files.walk(Path.of(Profiles.ArtifactQuota.DIR))) {
            return files.filter(Files::isRegularFile)
                    .mapToLong(f -> f.toFile().length())
                    .sum();
        }
    }

    private static String sha256(byte[] data) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    }
}
