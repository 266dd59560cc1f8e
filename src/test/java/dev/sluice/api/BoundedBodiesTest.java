package dev.sluice.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.sluice.actions.Problem;
import dev.sluice.testsupport.Dispatches;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * Both doors read bodies through the bounded reader and the decoding budget
 * (ADR 0076): a body past a bound gets its problem detail (413 for the whole
 * document, 422 naming the field), over REST and MCP alike, and creates
 * nothing; a body while another holds the tenant's share of the budget gets
 * 429 with Retry-After, and the share comes back when that request ends.
 */
@QuarkusTest
class BoundedBodiesTest {

    static Stream<Arguments> pastABound() {
        return Stream.of(
                Arguments.of("/v1/dispatches", dispatch("\"command\":[" + items("\"a\"", 4097) + "]"), 422, "command"),
                Arguments.of("/v1/dispatches", dispatch("\"env\":{" + variables(4097) + "}"), 422, "env"),
                Arguments.of(
                        "/v1/dispatches",
                        dispatch("\"metadata\":{\"a\":[" + items("[]", 4_000) + "]}"),
                        422,
                        "metadata"),
                Arguments.of(
                        "/v1/dispatches",
                        dispatch("\"metadata\":{\"a\":" + "[".repeat(40) + "]".repeat(40) + "}"),
                        422,
                        "metadata"),
                Arguments.of(
                        "/v1/dispatches",
                        dispatch("\"workspace\":{\"files\":[" + items("{\"path\":\"a\"}", 10_001) + "]}"),
                        422,
                        "workspace.files"),
                Arguments.of("/v1/dispatches", dispatch("\"unknown\":{" + variables(100_000) + "}"), 413, null),
                Arguments.of(
                        "/v1/dispatch-groups", "{\"dispatches\":[" + items("{}", 100_000) + "]}", 422, "dispatches"),
                Arguments.of(
                        "/v1/dispatch-groups",
                        "{\"dispatches\":[" + dispatch("\"metadata\":{\"a\":[" + items("0", 1001) + "]}") + "]}",
                        422,
                        "dispatches.0.metadata"));
    }

    @ParameterizedTest
    @MethodSource("pastABound")
    void aBodyPastABoundIsRefusedAndCreatesNothing(String path, String body, int status, String field) {
        String before = Dispatches.newest();
        Response response = given().contentType(ContentType.JSON).body(body).post(path);
        assertRefused(response, status, field);
        assertThat(Dispatches.newest()).isEqualTo(before);
    }

    @Test
    void mcpMessagesAreBoundedBeforeTheMcpServerReadsThem() {
        String nested = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"dispatch_subagent\",\"arguments\":"
                + dispatch("\"metadata\":{\"a\":" + "[".repeat(40) + "]".repeat(40) + "}") + "}}";
        assertRefused(mcp(nested), 422, "metadata");
        String group = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"dispatch_group\",\"arguments\":{\"dispatches\":[" + items("{}", 100_000) + "]}}}";
        assertRefused(mcp(group), 422, "dispatches");
        // Within the bounds, the MCP server answers as before.
        String initialize = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"bounded\",\"version\":\"1\"}}}";
        mcp(initialize).then().statusCode(200);
    }

    @Test
    void aBodyIsRefused429WhileAnotherHoldsTheTenantsShareAndReadOnceItEnds() throws IOException {
        String body = dispatch("\"input\":\"" + "x".repeat(5 << 20) + "\"");
        try (Socket held = new Socket("localhost", RestAssured.port)) {
            // 12 MB declared and never sent: charged until the connection ends, 16 MiB the tenant's share.
            OutputStream out = held.getOutputStream();
            out.write(("POST /v1/dispatches HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                            + "Content-Length: 12000000\r\n\r\n{")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Response refused = firstAnswer(body, 429, true);
            refused.then().contentType(Problem.MEDIA_TYPE).header("Retry-After", "5");
            assertThat(refused.jsonPath().getString("type")).endsWith(":too-many-bodies");
            assertThat(refused.jsonPath().getString("detail"))
                    .contains("sluice.api.max-decoding-bytes-per-tenant")
                    .contains("nothing was created");
        }
        // The held request ended with its connection: its share is back, and the same body is read.
        firstAnswer(body, 429, false).then().statusCode(422);
    }

    /**
     * Over HTTP/2 (h2c, as the JDK's client upgrades to it) a request may name
     * no length: reads are not charged, a body of unknown length is read and
     * bounded, and nothing is refused for the budget it took while read.
     */
    @Test
    void overHttp2RequestsWithAndWithoutLengthsAreReadAsOverHttp1() throws Exception {
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        String base = "http://localhost:" + RestAssured.port;
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> listed = http.send(
                    HttpRequest.newBuilder(URI.create(base + "/v1/dispatches?limit=1"))
                            .timeout(Duration.ofSeconds(30))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
        }
        assertThat(http.send(
                                HttpRequest.newBuilder(URI.create(base + "/v1/dispatches?limit=1"))
                                        .GET()
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .version())
                .isEqualTo(HttpClient.Version.HTTP_2);
        byte[] tooMany =
                ("{\"image\":\"\",\"command\":[" + items("\"a\"", 4097) + "]}").getBytes(StandardCharsets.UTF_8);
        for (HttpRequest.BodyPublisher body : List.of(
                HttpRequest.BodyPublishers.ofByteArray(tooMany),
                HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(tooMany)))) {
            HttpResponse<String> refused = http.send(
                    HttpRequest.newBuilder(URI.create(base + "/v1/dispatches"))
                            .timeout(Duration.ofSeconds(30))
                            .header("Content-Type", "application/json")
                            .POST(body)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
            assertThat(refused.body()).contains("has more than 4096 arguments");
        }
        List<CompletableFuture<HttpResponse<String>>> bodiless = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            bodiless.add(http.sendAsync(
                    HttpRequest.newBuilder(URI.create(base + "/v1/dispatches/none-such/redeliver"))
                            .timeout(Duration.ofSeconds(30))
                            .POST(HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> answer : bodiless) {
            assertThat(answer.get(1, TimeUnit.MINUTES).statusCode()).isEqualTo(404);
        }
    }

    /**
     * The first answer that is (or, with {@code is} false, is not) {@code status}:
     * the held request's headers and its end reach the worker on a connection of
     * their own, a moment apart from the requests made here.
     */
    private static Response firstAnswer(String body, int status, boolean is) {
        for (int attempt = 0; attempt < 200; attempt++) {
            Response response = given().contentType(ContentType.JSON).body(body).post("/v1/dispatches");
            if ((response.statusCode() == status) == is) {
                return response;
            }
        }
        throw new AssertionError("no answer " + (is ? "" : "other than ") + status + " in 200 requests");
    }

    private static void assertRefused(Response response, int status, String field) {
        response.then().statusCode(status).contentType(Problem.MEDIA_TYPE);
        assertThat(response.jsonPath().getString("type")).startsWith("urn:problem-type:sluice:");
        assertThat(response.asString())
                .doesNotContain("Exception")
                .doesNotContain("com.fasterxml")
                .doesNotContain("\tat ");
        if (field != null) {
            assertThat(response.jsonPath().getString("errors[0].field")).isEqualTo(field);
        }
    }

    private static Response mcp(String message) {
        return given().contentType(ContentType.JSON)
                .accept("application/json, text/event-stream")
                .body(message)
                .post("/mcp");
    }

    /** A dispatch request with an invalid image, so that a body within every bound is refused by validation. */
    private static String dispatch(String fields) {
        return "{\"image\":\"\"," + fields + "}";
    }

    private static String items(String item, int n) {
        return String.join(",", Collections.nCopies(n, item));
    }

    private static String variables(int n) {
        StringBuilder entries = new StringBuilder();
        for (int i = 0; i < n; i++) {
            entries.append(i == 0 ? "" : ",").append("\"V").append(i).append("\":\"\"");
        }
        return entries.toString();
    }
}
