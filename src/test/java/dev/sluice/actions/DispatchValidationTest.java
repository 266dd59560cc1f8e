package dev.sluice.actions;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.sluice.testsupport.Dispatches;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * Bad requests get an RFC 9457 problem naming what is wrong, never a 5xx or a
 * stack trace, and create nothing.
 */
@QuarkusTest
class DispatchValidationTest {

    static Stream<Arguments> invalidBodies() {
        return Stream.of(
                Arguments.of("{}", 422, List.of("image")),
                Arguments.of("{\"image\":\"\"}", 422, List.of("image")),
                Arguments.of("{\"image\":\"UPPER/case\"}", 422, List.of("image")),
                Arguments.of("{\"image\":\"a b\"}", 422, List.of("image")),
                Arguments.of("{\"image\":\"img:\"}", 422, List.of("image")),
                Arguments.of("{\"image\":5}", 422, List.of("image")),
                Arguments.of("{\"image\":\"x\",\"id\":\"has space\"}", 422, List.of("id")),
                Arguments.of("{\"image\":\"x\",\"id\":\"" + "a".repeat(65) + "\"}", 422, List.of("id")),
                Arguments.of("{\"image\":\"x\",\"unknown\":true}", 422, List.of("unknown")),
                Arguments.of("{\"image\":\"x\",\"resources\":{\"gpus\":1}}", 422, List.of("resources.gpus")),
                Arguments.of("{\"image\":\"x\",\"timeout\":\"PT7H\"}", 422, List.of("timeout")),
                Arguments.of("{\"image\":\"x\",\"timeout\":\"soon\"}", 422, List.of("timeout")),
                Arguments.of("{\"image\":\"x\",\"timeout\":\"-PT1S\"}", 422, List.of("timeout")),
                Arguments.of("{\"image\":\"x\",\"idleTimeout\":\"PT2H\"}", 422, List.of("idleTimeout")),
                Arguments.of("{\"image\":\"x\",\"idleTimeout\":\"quiet\"}", 422, List.of("idleTimeout")),
                Arguments.of("{\"image\":\"x\",\"idleTimeout\":\"PT0S\"}", 422, List.of("idleTimeout")),
                Arguments.of("{\"image\":\"x\",\"idleTimeout\":30}", 422, List.of("idleTimeout")),
                Arguments.of(
                        "{\"image\":\"x\",\"resources\":{\"memoryBytes\":99999999999999}}",
                        422,
                        List.of("resources.memoryBytes")),
                Arguments.of(
                        "{\"image\":\"x\",\"resources\":{\"memoryBytes\":1024}}",
                        422,
                        List.of("resources.memoryBytes")),
                Arguments.of("{\"image\":\"x\",\"resources\":{\"cpus\":64}}", 422, List.of("resources.cpus")),
                Arguments.of("{\"image\":\"x\",\"resources\":{\"pids\":0}}", 422, List.of("resources.pids")),
                Arguments.of(
                        "{\"image\":\"x\",\"resources\":{\"memoryBytes\":\"1G\"}}",
                        422,
                        List.of("resources.memoryBytes")),
                Arguments.of(
                        "{\"image\":\"x\",\"output\":{\"stdoutCapBytes\":17000000}}",
                        422,
                        List.of("output.stdoutCapBytes")),
                Arguments.of(
                        "{\"image\":\"x\",\"output\":{\"stderrCapBytes\":100}}", 422, List.of("output.stderrCapBytes")),
                Arguments.of("{\"image\":\"x\",\"output\":{\"format\":\"yaml\"}}", 422, List.of("output.format")),
                Arguments.of(
                        "{\"image\":\"x\",\"output\":{\"stderrFormat\":\"JSON\"}}",
                        422,
                        List.of("output.stderrFormat")),
                Arguments.of(
                        "{\"image\":\"x\",\"output\":{\"format\":\"json\",\"project\":[\"/id\",\"id\",\"/a~2\",\"\"]}}",
                        422,
                        List.of("output.project.1", "output.project.2", "output.project.3")),
                Arguments.of(
                        "{\"image\":\"x\",\"output\":{\"format\":\"jsonl\",\"project\":[\"/id\"]}}",
                        422,
                        List.of("output.project")),
                Arguments.of(
                        "{\"image\":\"x\",\"output\":{\"format\":\"jsonl\",\"stdoutCapBytes\":100}}",
                        422,
                        List.of("output.stdoutCapBytes")),
                Arguments.of("{\"image\":\"x\",\"network\":\"host\"}", 422, List.of("network")),
                Arguments.of("{\"image\":\"x\",\"workingDir\":\"relative\"}", 422, List.of("workingDir")),
                Arguments.of("{\"image\":\"x\",\"env\":{\"BAD-NAME\":\"v\"}}", 422, List.of("env.BAD-NAME")),
                Arguments.of(
                        "{\"image\":\"x\",\"env\":{\"A\":\"1\"},\"secrets\":{\"A\":\"s3cret-value\"}}",
                        422,
                        List.of("secrets.A")),
                // Shorter than sluice.secrets.min-length (8 bytes by default), the value itself never repeated.
                Arguments.of(
                        "{\"image\":\"x\",\"secrets\":{\"SHORT\":\"7-bytes\",\"LONG\":\"8-bytes!\"}}",
                        422,
                        List.of("secrets.SHORT")),
                Arguments.of("{\"image\":\"x\",\"command\":[\"ok\",2]}", 422, List.of("command.1")),
                Arguments.of("{\"image\":\"x\",\"maxAttempts\":0}", 422, List.of("maxAttempts")),
                Arguments.of("{\"image\":\"x\",\"maxAttempts\":11}", 422, List.of("maxAttempts")),
                // Another attempt runs on another worker: secret values and inline workspaces stay on this one.
                Arguments.of(
                        "{\"image\":\"x\",\"maxAttempts\":2,\"secrets\":{\"API_KEY\":\"s3cret-value\"}}",
                        422,
                        List.of("maxAttempts")),
                Arguments.of(
                        "{\"image\":\"x\",\"maxAttempts\":2,\"workspace\":{\"files\":"
                                + "[{\"path\":\"a.txt\",\"content\":\"a\"}]}}",
                        422,
                        List.of("maxAttempts")),
                Arguments.of(
                        "{\"image\":\"x\",\"callbackUrl\":\"ftp://example.com/hook\"}", 422, List.of("callbackUrl")),
                Arguments.of("{\"image\":\"x\",\"callbackUrl\":\"not a url\"}", 422, List.of("callbackUrl")),
                Arguments.of("{\"image\":\"x\",\"callbackEncoding\":\"br\"}", 422, List.of("callbackEncoding")),
                Arguments.of("{\"image\":\"x\",\"callbackEncoding\":\"GZIP\"}", 422, List.of("callbackEncoding")),
                Arguments.of(
                        "{\"image\":\"x\",\"callbackUrl\":\"http://Metadata.Google.Internal./computeMetadata/v1/\"}",
                        422,
                        List.of("callbackUrl")),
                Arguments.of(
                        "{\"image\":\"x\",\"metadata\":{\"big\":\"" + "m".repeat(17_000) + "\"}}",
                        422,
                        List.of("metadata")),
                // Several problems at once are all named.
                Arguments.of(
                        "{\"id\":\"!\",\"timeout\":\"x\",\"resources\":{\"pids\":-1}}",
                        422,
                        List.of("id", "image", "timeout", "resources.pids")),
                Arguments.of("{not json", 400, List.of()),
                Arguments.of("[1,2]", 400, List.of()),
                Arguments.of("{\"image\":\"x\",\"image\":\"y\"}", 400, List.of()),
                Arguments.of("{\"image\":\"x\"} trailing", 400, List.of()),
                Arguments.of("", 400, List.of()));
    }

    @ParameterizedTest
    @MethodSource("invalidBodies")
    void invalidRequestsAreProblemsNamingEachBadFieldAndCreateNothing(String body, int status, List<String> fields) {
        String before = Dispatches.newest();
        Response response = given().contentType(ContentType.JSON).body(body).post("/v1/dispatches");

        response.then().statusCode(status).contentType(Problem.MEDIA_TYPE);
        assertThat(response.jsonPath().getString("type")).startsWith("urn:problem-type:sluice:");
        assertThat(response.jsonPath().getString("title")).isNotBlank();
        assertThat(response.jsonPath().getInt("status")).isEqualTo(status);
        assertThat(response.jsonPath().getString("detail")).isNotBlank();
        assertThat(response.jsonPath().getList("errors.field", String.class))
                .containsExactlyInAnyOrderElementsOf(fields.isEmpty() ? List.of() : fields);
        assertNoLeak(response.asString());
        assertThat(Dispatches.newest()).isEqualTo(before);
    }

    @ParameterizedTest
    @MethodSource("invalidBodies")
    void secretValuesNeverComeBackInAProblem(String body, int status, List<String> fields) {
        String withSecret = body.replace("s3cret", "TOPSECRET-value");
        String answer = given().contentType(ContentType.JSON)
                .body(withSecret)
                .post("/v1/dispatches")
                .asString();
        assertThat(answer).doesNotContain("TOPSECRET-value");
    }

    /** The API document's example (section 3.2), as a client reads it. */
    @org.junit.jupiter.api.Test
    void aShortSecretIsRefusedNamingItsFieldAndTheMinimum() {
        Response response = given().contentType(ContentType.JSON)
                .body("{\"image\":\"sluice-agent:test\",\"secrets\":{\"API_KEY\":\"short\"}}")
                .post("/v1/dispatches");
        response.then().statusCode(422);
        assertThat(response.jsonPath().getString("detail")).isEqualTo("secrets.API_KEY: must be at least 8 bytes long");
        assertThat(response.jsonPath().getString("errors[0].pointer")).isEqualTo("#/secrets/API_KEY");
        assertThat(response.asString()).doesNotContain("short\"");
    }

    @org.junit.jupiter.api.Test
    void bodiesOverTheLimitAre413ProblemsChunkedOrNot() {
        String huge = "{\"image\":\"x\",\"input\":\"" + "a".repeat(13 << 20) + "\"}";
        String before = Dispatches.newest();
        Response declared = given().contentType(ContentType.JSON).body(huge).post("/v1/dispatches");
        declared.then().statusCode(413).contentType(Problem.MEDIA_TYPE);
        assertThat(declared.jsonPath().getString("type")).endsWith("body-too-large");

        // A stream body has no declared length: it goes out chunked.
        Response chunked = given().contentType(ContentType.JSON)
                .body(new java.io.ByteArrayInputStream(huge.getBytes()))
                .post("/v1/dispatches");
        chunked.then().statusCode(413).contentType(Problem.MEDIA_TYPE);
        assertThat(Dispatches.newest()).isEqualTo(before);
    }

    @org.junit.jupiter.api.Test
    void otherRefusalsAreProblemsToo() {
        given().contentType(ContentType.TEXT)
                .body("image")
                .post("/v1/dispatches")
                .then()
                .statusCode(415)
                .contentType(Problem.MEDIA_TYPE);
        given().put("/v1/dispatches/x").then().statusCode(405).contentType(Problem.MEDIA_TYPE);
        // The 405 names no methods; OPTIONS on the path does.
        assertThat(given().options("/v1/dispatches/x")
                        .then()
                        .statusCode(200)
                        .extract()
                        .header("Allow"))
                .contains("GET", "DELETE");
        given().get("/v1/dispatches/does-not-exist").then().statusCode(404).contentType(Problem.MEDIA_TYPE);
        given().delete("/v1/dispatches/does-not-exist").then().statusCode(404).contentType(Problem.MEDIA_TYPE);
        given().queryParam("status", "sleeping")
                .get("/v1/dispatches")
                .then()
                .statusCode(422)
                .contentType(Problem.MEDIA_TYPE);
        given().queryParam("limit", 0).get("/v1/dispatches").then().statusCode(422);
        given().queryParam("limit", 101).get("/v1/dispatches").then().statusCode(422);
        given().queryParam("after", "d-never-listed")
                .get("/v1/dispatches")
                .then()
                .statusCode(422);
    }

    private static void assertNoLeak(String body) {
        assertThat(body)
                .doesNotContain("Exception")
                .doesNotContain("java.")
                .doesNotContain("com.fasterxml")
                .doesNotContain("dev.sluice")
                .doesNotContain("\tat ");
    }
}
