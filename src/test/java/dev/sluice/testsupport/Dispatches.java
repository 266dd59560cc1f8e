package dev.sluice.testsupport;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/** Submitting dispatches over the real HTTP API and waiting for their results. */
public final class Dispatches {

    private static final Set<String> TERMINAL = Set.of("succeeded", "failed", "timed_out", "cancelled", "error");

    private Dispatches() {}

    /** A request running a shell script in the test agent image. */
    public static Map<String, Object> script(String script) {
        return Map.of("image", TestDocker.AGENT_IMAGE, "command", List.of("sh", "-c", script));
    }

    /** A request's {@code workspace} of one inline file at {@code path} holding {@code content}, sent as base64. */
    public static Map<String, Object> oneFileWorkspace(String path, byte[] content) {
        return Map.of(
                "files",
                List.of(Map.of(
                        "path", path, "content", Base64.getEncoder().encodeToString(content), "encoding", "base64")));
    }

    public static Response post(Object body) {
        return given().contentType(ContentType.JSON).body(body).post("/v1/dispatches");
    }

    /** The newest dispatch's id, or null: it changes exactly when something is created. */
    public static String newest() {
        return given().queryParam("limit", 1)
                .get("/v1/dispatches")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getString("items[0].id");
    }

    /** Submits and returns the new dispatch's id, failing unless it was accepted. */
    public static String submit(Object body) {
        return post(body).then().statusCode(202).extract().path("id");
    }

    public static JsonPath get(String id) {
        return given().get("/v1/dispatches/" + id)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    /** Waits for a terminal status and returns the record. */
    public static JsonPath awaitTerminal(String id, Duration within) {
        return await().atMost(within)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> get(id), r -> TERMINAL.contains(r.getString("status")));
    }

    public static JsonPath awaitTerminal(String id) {
        return awaitTerminal(id, Duration.ofSeconds(60));
    }

    /** Waits until the dispatch's callback was delivered and returns the record. */
    public static JsonPath awaitDelivered(String id) {
        return await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> get(id), r -> "delivered".equals(r.getString("callback.state")));
    }

    public static JsonPath awaitStatus(String id, String status) {
        return await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> get(id), r -> status.equals(r.getString("status")));
    }
}
