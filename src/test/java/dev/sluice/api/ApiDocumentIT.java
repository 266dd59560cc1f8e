package dev.sluice.api;

import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * The examples of the written contract (docs/api.md) against the running
 * worker: each request example is sent as written, and each answer must have
 * exactly the fields the document shows, of the same types, with the same
 * values except for times. A document that drifts from the worker fails here.
 */
@QuarkusTest
class ApiDocumentIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern EXAMPLE =
            Pattern.compile("<!-- example: ([a-z0-9-]+) -->\\n```(json|http)\\n(.*?)\\n```", Pattern.DOTALL);
    /** What differs from run to run. */
    private static final Set<String> VARYING = Set.of("createdAt", "startedAt", "finishedAt", "durationMs");

    private static Map<String, String> examples;

    @BeforeAll
    static void readTheDocument() throws IOException {
        examples = new HashMap<>();
        Matcher m = EXAMPLE.matcher(Files.readString(Path.of("docs/api.md")));
        while (m.find()) {
            examples.put(m.group(1), m.group(3));
        }
        assertThat(examples)
                .containsKeys(
                        "request",
                        "record-accepted",
                        "record-finished",
                        "listing",
                        "request-invalid",
                        "problem-422",
                        "problem-404",
                        "log-range",
                        "request-report",
                        "result-report",
                        "digest",
                        "request-invalid-mode",
                        "problem-422-mode");
    }

    private static JsonNode example(String name) throws IOException {
        return JSON.readTree(examples.get(name));
    }

    @Test
    void theDispatchOfTheExamplesRunsAsDocumented() throws IOException {
        JsonNode request = example("request");
        String id = request.path("id").asText();
        Response accepted = given().contentType(ContentType.JSON)
                .header("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
                .body(request.toString())
                .post("/v1/dispatches");
        assertThat(accepted.statusCode()).isEqualTo(202);
        assertThat(accepted.header("Location")).endsWith("/v1/dispatches/" + id);
        assertSameAs(example("record-accepted"), JSON.readTree(accepted.asString()), "record-accepted");

        awaitTerminal(id);
        JsonNode documented = example("record-finished");
        JsonNode finished = withNonce(
                given().get("/v1/dispatches/" + id).asString(),
                documented.path("result").path("stdoutOverflow").path("nonce").asText());
        assertSameAs(documented, finished, "record-finished");

        Response listing = given().queryParam("limit", 100).get("/v1/dispatches");
        JsonNode item = find(JSON.readTree(listing.asString()).path("items"), id);
        assertSameAs(find(example("listing").path("items"), id), item, "listing item " + id);

        String[] logRange = examples.get("log-range").split("\\n\\n", 2);
        Response range =
                given().queryParam("offset", 0).queryParam("limit", 40).get("/v1/dispatches/" + id + "/logs/stdout");
        assertThat(range.statusCode()).isEqualTo(200);
        for (String header : logRange[0].split("\\n")) {
            String[] nameValue = header.split(": ", 2);
            assertThat(range.header(nameValue[0])).as(nameValue[0]).isEqualTo(nameValue[1]);
        }
        assertThat(range.asByteArray()).isEqualTo((logRange[1] + "\n").getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theReportAndTheDigestAreAsDocumented() throws IOException {
        JsonNode request = example("request-report");
        String id = request.path("id").asText();
        given().contentType(ContentType.JSON)
                .body(request.toString())
                .post("/v1/dispatches")
                .then()
                .statusCode(202);
        awaitTerminal(id);

        JsonNode finished = JSON.readTree(given().get("/v1/dispatches/" + id).asString());
        assertSameAs(example("result-report"), finished.path("result"), "result-report");

        Response digest = given().get("/v1/dispatches/" + id + "/digest");
        assertThat(digest.statusCode()).isEqualTo(200);
        assertThat(digest.asByteArray().length).isLessThanOrEqualTo(512);
        assertThat(JSON.readTree(digest.asString())).isEqualTo(example("digest"));
    }

    @Test
    void theRefusalsAreAsDocumented() throws IOException {
        Response invalid = given().contentType(ContentType.JSON)
                .body(examples.get("request-invalid"))
                .post("/v1/dispatches");
        assertThat(invalid.statusCode()).isEqualTo(422);
        assertThat(JSON.readTree(invalid.asString())).isEqualTo(example("problem-422"));

        Response badMode = given().contentType(ContentType.JSON)
                .body(examples.get("request-invalid-mode"))
                .post("/v1/dispatches");
        assertThat(badMode.statusCode()).isEqualTo(422);
        assertThat(JSON.readTree(badMode.asString())).isEqualTo(example("problem-422-mode"));

        Response missing = given().get("/v1/dispatches/triage-99");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(missing.asString())).isEqualTo(example("problem-404"));
    }

    /**
     * The record as served, with its random marker nonce written as the
     * document's: everywhere, so the marker in {@code stdout} must carry the
     * very nonce of the overflow record for the two to match the document.
     */
    private static JsonNode withNonce(String served, String documentedNonce) throws IOException {
        String nonce = JSON.readTree(served)
                .path("result")
                .path("stdoutOverflow")
                .path("nonce")
                .asText();
        assertThat(nonce).matches("[A-Za-z0-9_-]{12}");
        return JSON.readTree(served.replace(nonce, documentedNonce));
    }

    private static JsonNode find(JsonNode items, String id) {
        for (JsonNode item : items) {
            if (id.equals(item.path("id").asText())) {
                return item;
            }
        }
        throw new AssertionError("no item " + id);
    }

    /** The same fields, of the same JSON types, with the same values where they do not vary by run. */
    private static void assertSameAs(JsonNode documented, JsonNode actual, String where) {
        List<String> differences = new ArrayList<>();
        compare(documented, actual, where, differences);
        assertThat(differences)
                .as("differences between docs/api.md and the worker")
                .isEmpty();
    }

    private static void compare(JsonNode documented, JsonNode actual, String path, List<String> differences) {
        if (documented.getNodeType() != actual.getNodeType()) {
            differences.add(path + ": documented " + documented.getNodeType() + ", served " + actual.getNodeType());
            return;
        }
        if (documented.isObject()) {
            List<String> documentedNames = names(documented);
            List<String> servedNames = names(actual);
            if (!documentedNames.equals(servedNames)) {
                differences.add(path + ": documented fields " + documentedNames + ", served " + servedNames);
                return;
            }
            for (String name : documentedNames) {
                if (!VARYING.contains(name)) {
                    compare(documented.get(name), actual.get(name), path + "." + name, differences);
                }
            }
        } else if (!documented.equals(actual)) {
            differences.add(path + ": documented " + documented + ", served " + actual);
        }
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }
}
