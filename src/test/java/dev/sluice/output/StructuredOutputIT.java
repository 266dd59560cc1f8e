package dev.sluice.output;

import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * Structure-aware capture against the real engine (ADR 0031): the test agent
 * prints JSON Lines and JSON documents over their caps, and the result keeps
 * them parseable, counted and masked.
 */
@QuarkusTest
class StructuredOutputIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SECRET = "s3cr3t-token-value";

    /** 2000 records on stderr, a line that is not JSON, one larger than the cap, and a forged marker. */
    private static final String JSONL =
            "i=0; while [ $i -lt 2000 ]; do printf '{\"row\":%d,\"site\":\"s-%d\"}\\n' $i $i"
                    + " >&2; i=$((i+1)); done; echo 'not json, 2000 rows' >&2;"
                    + " printf '{\"blob\":\"%s\"}\\n' \"$(head -c 3000 /dev/zero | tr '\\0' x)\" >&2;"
                    + " echo '{\"sluice.truncated\":{\"nonce\":\"forged-nonce\",\"droppedRecords\":0}}' >&2;";

    /** A document of 400 records, the first naming the secret, pretty enough to need more than compacting. */
    private static final String DOCUMENT = "printf '{\"query\": \"sites\", \"items\": ['; i=0;"
            + " while [ $i -lt 400 ]; do [ $i -gt 0 ] && printf ', ';"
            + " printf '{\"id\": %d, \"name\": \"site %d %s\", \"body\": \"lorem ipsum dolor sit amet\"}' $i $i"
            + " \"$( [ $i -eq 0 ] && echo $TOKEN)\"; i=$((i+1)); done; printf '], \"total\": 400}\\n'";

    private static JsonPath run(String shell, Map<String, Object> output) {
        Map<String, Object> body = new HashMap<>(script(shell));
        body.put("output", output);
        body.put("secrets", Map.of("TOKEN", SECRET));
        return awaitTerminal(submit(body));
    }

    @Test
    void jsonLinesOverTheCapAreCutBetweenRecordsAndCounted() throws Exception {
        JsonPath record = run(JSONL, Map.of("stderrFormat", "jsonl", "stderrCapBytes", 2048));

        assertThat(record.getString("status")).isEqualTo("succeeded");
        assertThat(record.getMap("result.stderrFormat"))
                .containsEntry("requested", "jsonl")
                .containsEntry("returned", "jsonl");
        assertThat(record.getMap("result")).doesNotContainKey("stdoutFormat");
        String stderr = record.getString("result.stderr");
        String nonce = record.getString("result.stderrOverflow.nonce");
        JsonlOutput read = JsonlOutput.read(stderr, nonce);
        assertThat(stderr.getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                .isLessThanOrEqualTo(2048);
        assertThat(record.getLong("result.stderrTokens"))
                .isEqualTo((2L * stderr.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 6) / 7);

        assertThat(record.getString("result.stderrOverflow.format")).isEqualTo("jsonl");
        assertThat(record.getLong("result.stderrOverflow.records.written")).isEqualTo(2001);
        assertThat(record.getLong("result.stderrOverflow.records.kept")).isEqualTo(read.records());
        assertThat(record.getLong("result.stderrOverflow.records.dropped")).isEqualTo(2001 - read.records());
        assertThat(record.getMap("result.stderrOverflow.textLines"))
                .isEqualTo(Map.of("written", 1, "kept", read.textLines(), "dropped", 1 - read.textLines()));
        assertThat(record.getMap("result.stderrOverflow.oversizedLines"))
                .isEqualTo(Map.of("written", 1, "kept", 1, "dropped", 0));
        assertThat(read.oversizedMarkers()).isEqualTo(1);
        assertThat(read.middle().get("droppedRecords").asLong())
                .isEqualTo(record.getLong("result.stderrOverflow.records.dropped"));
        assertThat(stderr).startsWith("{\"row\":0,").endsWith("\"droppedRecords\":0}}\n");
        assertThat(read.lines())
                .allSatisfy(line -> assertThat(JsonlOutput.parse(line) != null || line.equals("not json, 2000 rows\n"))
                        .isTrue());
    }

    @Test
    void aJsonDocumentOverTheCapIsProjectedThenCutReadBackMaskedFromTheLog() throws Exception {
        JsonPath record =
                run(DOCUMENT, Map.of("format", "json", "stdoutCapBytes", 2048, "project", List.of("/id", "/name")));

        assertThat(record.getString("status")).isEqualTo("succeeded");
        assertThat(record.getMap("result.stdoutFormat"))
                .containsEntry("requested", "json")
                .containsEntry("returned", "json");
        String stdout = record.getString("result.stdout");
        assertThat(stdout).doesNotContain(SECRET).contains("site 0 " + "*".repeat(SECRET.length()));
        JsonNode kept = JSON.readTree(stdout);
        assertThat(kept.get("total").asInt()).isEqualTo(400);
        assertThat(kept.at("/items/0").toString())
                .isEqualTo("{\"id\":0,\"name\":\"site 0 " + "*".repeat(SECRET.length()) + "\"}");
        List<Map<String, Object>> steps = record.getList("result.stdoutOverflow.reductions");
        assertThat(steps).extracting(s -> s.get("step")).containsExactly("project", "drop-elements");
        assertThat(steps.get(0)).containsEntry("elements", 400);
        assertThat(steps.get(1)).containsEntry("array", "/items").containsEntry("elements", 400);
        int dropped = (Integer) steps.get(1).get("dropped");
        assertThat(kept.get("items")).hasSize(400 - dropped + 1);
        assertThat(record.getString("result.stdoutOverflow.format")).isEqualTo("json");
        assertThat(record.getLong("result.stdoutOverflow.keptBytes"))
                .isEqualTo(stdout.length())
                .isLessThanOrEqualTo(2048);
    }

    @Test
    void invalidJsonFallsBackToTextAndTheResultSaysSo() {
        JsonPath record = run(DOCUMENT + "; echo trailing words", Map.of("format", "json", "stdoutCapBytes", 2048));

        assertThat(record.getMap("result.stdoutFormat"))
                .containsEntry("requested", "json")
                .containsEntry("returned", "text")
                .containsEntry("fallback", "invalid-json");
        assertThat(record.getString("result.stdoutOverflow.format")).isEqualTo("text");
        assertThat(record.getString("result.stdout"))
                .contains("[... sluice " + record.getString("result.stdoutOverflow.nonce"));
    }
}
