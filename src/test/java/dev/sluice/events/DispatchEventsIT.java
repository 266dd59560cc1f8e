package dev.sluice.events;

import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.Program;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;

/**
 * The event streams as a control plane reads them: a separate Node program
 * with its own fetch follows real containers on the real engine.
 */
@QuarkusTest
class DispatchEventsIT {

    private static final Duration WITHIN = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Prints a numbered line on each stream five times a second, its secret in every stdout line, until stopped. */
    private static final String PRINTER = "i=0; while [ $i -lt 300 ]; do i=$((i+1)); "
            + "echo \"line $i key=$API_KEY\"; echo \"err $i\" >&2; sleep 0.2; done";

    @Test
    void aSubscriberFollowsStatesAndTheMaskedTailUntilTheEndWithItsDigest() throws Exception {
        String secret = "sk-" + UUID.randomUUID();
        Map<String, Object> body = new HashMap<>(script(PRINTER));
        body.put("secrets", Map.of("API_KEY", secret));
        String id = submit(body);

        List<JsonNode> events;
        List<JsonNode> resumed;
        String resumedText;
        try (Program.Running client = Program.startNode("sse-client.mjs", url("/v1/dispatches/" + id + "/events"));
                Program.Running afterRunning =
                        Program.startNode("sse-client.mjs", url("/v1/dispatches/" + id + "/events"), "3")) {
            // Once the first client has been shown a few lines as they were printed, stop the container.
            client.awaitLine(line -> count(client.lines(), "stdout") >= 3, WITHIN);
            afterRunning.awaitLine(line -> line.contains("\"status\":200"), WITHIN);
            given().delete("/v1/dispatches/" + id).then().statusCode(202);

            assertThat(client.awaitExit(WITHIN)).isZero();
            assertThat(afterRunning.awaitExit(WITHIN)).isZero();
            events = parse(client.lines());
            resumed = parse(afterRunning.lines());
            resumedText = String.join("\n", afterRunning.lines());
        }
        JsonPath record = awaitTerminal(id);
        assertThat(record.getString("status")).isEqualTo("cancelled");

        assertThat(events.get(0).path("status").asInt()).isEqualTo(200);
        assertThat(events.get(0).path("contentType").asText()).startsWith("text/event-stream");
        assertThat(events.get(events.size() - 1).path("end").asBoolean()).isTrue();

        // States in order, each once, ids rising, and the end last, with the digest.
        List<JsonNode> states = named(events, "state");
        List<String> statuses =
                states.stream().map(e -> e.path("data").path("status").asText()).toList();
        assertThat(List.of("queued", "starting", "running", "cancelled")).containsSubsequence(statuses);
        assertThat(statuses).endsWith("running", "cancelled");
        assertThat(states.stream().map(e -> e.path("id").asInt()).toList())
                .isSorted()
                .doesNotHaveDuplicates();
        JsonNode end = events.get(events.size() - 2);
        assertThat(end.path("event").asText()).isEqualTo("state");
        assertThat(end.path("id").asText()).isEqualTo("4");
        assertThat(end.path("data").path("id").asText()).isEqualTo(id);
        assertThat(end.path("data").path("digest").path("id").asText()).isEqualTo(id);
        assertThat(end.path("data").path("digest").path("status").asText()).isEqualTo("cancelled");

        // The tail is the stream as the result has it, masked the same way, from where the client joined.
        assertThat(named(events, "gap")).isEmpty();
        List<JsonNode> stdout = named(events, "stdout");
        long from = stdout.get(0).path("data").path("offset").asLong();
        StringBuilder tail = new StringBuilder();
        List<Integer> ends = new ArrayList<>();
        for (JsonNode e : stdout) {
            assertThat(e.path("data").path("offset").asLong()).isEqualTo(from + tail.length());
            tail.append(e.path("data").path("text").asText());
            ends.add(tail.length());
        }
        String shown = record.getString("result.stdout").substring((int) from);
        assertThat(tail).hasSameSizeAs(shown);
        // Equal to the result but where an event ended in what might have begun a secret: that is masked
        // before what follows is known (docs/api.md 2.11). A secret's longest form is under six times its length.
        for (int i = 0; i < shown.length(); i++) {
            if (tail.charAt(i) != shown.charAt(i)) {
                int at = i;
                assertThat(tail.charAt(at)).as("byte %d of the tail", at).isEqualTo('*');
                assertThat(ends)
                        .as("byte %d of the tail differs from the result away from an event's end", at)
                        .anyMatch(e -> e > at && e - at < 6 * secret.length());
            }
        }
        assertThat(tail.toString()).contains("key=" + "*".repeat(secret.length()));
        assertThat(resumedText + tail).doesNotContain(secret);
        assertThat(named(events, "stderr")).isNotEmpty();

        // A client that saw running before it came back is shown only what came after.
        assertThat(named(resumed, "state"))
                .singleElement()
                .satisfies(
                        e -> assertThat(e.path("data").path("status").asText()).isEqualTo("cancelled"));
    }

    @Test
    void aSubscriberAfterTheEndGetsTheEndAtOnceAndOneThatSawItGetsNothing() throws Exception {
        String id = submit(script("echo done"));
        awaitTerminal(id);

        List<JsonNode> late = follow("/v1/dispatches/" + id + "/events");
        assertThat(late).hasSize(3); // the head, the end, the close
        JsonNode end = late.get(1);
        assertThat(end.path("event").asText()).isEqualTo("state");
        assertThat(end.path("id").asText()).isEqualTo("4");
        assertThat(end.path("data").path("status").asText()).isEqualTo("succeeded");
        assertThat(end.path("data").path("digest").path("exitCode").asInt()).isZero();

        assertThat(named(follow("/v1/dispatches/" + id + "/events", "2"), "state"))
                .singleElement()
                .satisfies(e -> assertThat(e.path("id").asText()).isEqualTo("4"));
        List<JsonNode> sawIt = follow("/v1/dispatches/" + id + "/events", "4");
        assertThat(named(sawIt, "state")).isEmpty();
        assertThat(sawIt.get(sawIt.size() - 1).path("end").asBoolean()).isTrue();
    }

    @Test
    void anUnknownDispatchIsA404Problem() throws Exception {
        List<JsonNode> answer = follow("/v1/dispatches/no-such-dispatch/events");
        assertThat(answer.get(0).path("status").asInt()).isEqualTo(404);
        assertThat(answer.get(0).path("contentType").asText()).startsWith("application/problem+json");
        JsonNode problem = JSON.readTree(answer.get(1).path("body").asText());
        assertThat(problem.path("type").asText()).endsWith(":not-found");
        assertThat(problem.path("status").asInt()).isEqualTo(404);
    }

    @Test
    void theStreamOfAllDispatchesShowsOnlyThoseWithTheMetadataAskedFor() throws Exception {
        String team = "team-" + UUID.randomUUID();
        try (Program.Running client =
                Program.startNode("sse-client.mjs", url("/v1/events?metadataKey=" + team + "&metadataValue=blue"))) {
            client.awaitLine(line -> line.contains("\"status\":200"), WITHIN);

            Map<String, Object> red = new HashMap<>(script("echo red"));
            red.put("metadata", Map.of(team, "red"));
            String redId = submit(red);
            Map<String, Object> none = new HashMap<>(script("echo none"));
            none.put("metadata", Map.of("other", "blue"));
            String noneId = submit(none);
            awaitTerminal(redId);
            awaitTerminal(noneId);
            Map<String, Object> blue = new HashMap<>(script("echo blue"));
            blue.put("metadata", Map.of(team, "blue"));
            String blueId = submit(blue);
            client.awaitLine(line -> line.contains("\"succeeded\"") && line.contains(blueId), WITHIN);

            List<JsonNode> states = named(parse(client.lines()), "state");
            assertThat(states)
                    .allSatisfy(
                            e -> assertThat(e.path("data").path("id").asText()).isEqualTo(blueId));
            assertThat(states.stream()
                            .map(e -> e.path("data").path("status").asText())
                            .toList())
                    .containsExactly("queued", "starting", "running", "succeeded");
            assertThat(states.get(3).path("data").path("digest").path("id").asText())
                    .isEqualTo(blueId);
            assertThat(states).allSatisfy(e -> assertThat(e.path("id").isNull()).isTrue());
        }
        given().get("/v1/events?metadataValue=blue")
                .then()
                .statusCode(422)
                .body("errors[0].field", org.hamcrest.Matchers.equalTo("metadataKey"));
    }

    private static List<JsonNode> follow(String path, String... lastEventId) throws Exception {
        String[] args = lastEventId.length == 0 ? new String[] {url(path)} : new String[] {url(path), lastEventId[0]};
        try (Program.Running client = Program.startNode("sse-client.mjs", args)) {
            assertThat(client.awaitExit(WITHIN)).isZero();
            return parse(client.lines());
        }
    }

    private static String url(String path) {
        return "http://localhost:" + RestAssured.port + path;
    }

    private static List<JsonNode> parse(List<String> lines) throws Exception {
        List<JsonNode> parsed = new java.util.ArrayList<>();
        for (String line : lines) {
            parsed.add(JSON.readTree(line));
        }
        return parsed;
    }

    private static List<JsonNode> named(List<JsonNode> events, String name) {
        return events.stream()
                .filter(e -> name.equals(e.path("event").asText()))
                .toList();
    }

    private static long count(List<String> lines, String name) {
        return lines.stream()
                .filter(l -> l.contains("\"event\":\"" + name + "\""))
                .count();
    }
}
