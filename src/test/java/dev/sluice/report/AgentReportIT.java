package dev.sluice.report;

import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.get;
import static dev.sluice.testsupport.Dispatches.post;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.command.InspectVolumeResponse;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.sandbox.Labels;
import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.Signatures;
import dev.sluice.testsupport.TestDocker;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * The agent's report and the digest against the real engine (ADR 0022): what
 * an agent really writes into its out-directory, or prints, and what the worker
 * makes of it, hostile files included. None of it may fail a dispatch.
 */
@QuarkusTest
class AgentReportIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VALID =
            "{\"summary\":\"Looked at the parser.\",\"keyFindings\":[\"handles empty input\"],"
                    + "\"confidence\":\"medium\",\"verdict\":\"approve\",\"filesChanged\":[\"src/P.java\"],"
                    + "\"stats\":{\"testsRun\":12,\"coverage\":\"81%\"}}";

    @Inject
    ContainerRuntime runtime;

    private final Receiver receiver = Receiver.on("127.0.0.1");

    @AfterEach
    void close() {
        receiver.close();
    }

    /** Runs a dispatch whose agent writes {@code report} to the report file, then exits with {@code exit}. */
    private static JsonPath withReportFile(String report, int exit) {
        Map<String, Object> body =
                new HashMap<>(script("printf '%s' \"$REPORT\" > /sluice/out/report.json; echo done; exit " + exit));
        body.put("env", Map.of("REPORT", report));
        return awaitTerminal(submit(body));
    }

    private static JsonPath run(String shell) {
        return awaitTerminal(submit(script(shell)));
    }

    @Test
    void aReportFileIsPresentInTheResultApartFromWhatTheWorkerObserved() {
        JsonPath record = withReportFile(VALID, 3);

        assertThat(record.getString("status")).isEqualTo("failed");
        assertThat(record.getInt("result.exitCode")).isEqualTo(3); // the worker's observation, whatever the report says
        assertThat(record.getString("result.reportStatus")).isEqualTo("present");
        assertThat(record.getString("result.reportSource")).isEqualTo("file");
        assertThat(record.getString("result.reportDetail")).isNull();
        assertThat(record.getMap("result.report"))
                .containsEntry("summary", "Looked at the parser.")
                .containsEntry("keyFindings", List.of("handles empty input"))
                .containsEntry("confidence", "medium")
                .containsEntry("verdict", "approve")
                .containsEntry("filesChanged", List.of("src/P.java"))
                .containsEntry("stats", Map.of("testsRun", 12, "coverage", "81%"));
    }

    @Test
    void withoutAReportItIsMissing() {
        JsonPath record = run("echo no report");
        assertThat(record.getString("result.reportStatus")).isEqualTo("missing");
        assertThat(record.getString("result.reportSource")).isNull();
        assertThat(record.getString("result.reportDetail")).isNull();
        assertThat(record.getString("result.report")).isNull();
    }

    @Test
    void aMalformedReportIsNamedAndTheDispatchStillSucceeds() {
        JsonPath wrongType = withReportFile(VALID.replace("\"medium\"", "5"), 0);
        assertThat(wrongType.getString("status")).isEqualTo("succeeded");
        assertThat(wrongType.getString("result.reportStatus")).isEqualTo("malformed");
        assertThat(wrongType.getString("result.reportSource")).isEqualTo("file");
        assertThat(wrongType.getString("result.reportDetail")).isEqualTo("confidence: must be high, medium or low");
        assertThat(wrongType.getString("result.report")).isNull();

        JsonPath notJson = withReportFile("{\"summary\": \"unterminated", 0);
        assertThat(notJson.getString("result.reportStatus")).isEqualTo("malformed");
        assertThat(notJson.getString("result.reportDetail")).startsWith("is not valid JSON");

        JsonPath deep = withReportFile("{\"summary\":" + "[".repeat(5000) + "]".repeat(5000) + "}", 0);
        assertThat(deep.getString("result.reportStatus")).isEqualTo("malformed");
        assertThat(deep.getString("result.reportDetail")).isEqualTo("summary: must be a string");
    }

    @Test
    void anOversizedReportIsCutWithinItsBoundsAndSaysSo() {
        String report = "{\"summary\":\"" + "s".repeat(3000) + "\",\"keyFindings\":["
                + IntStream.range(0, 50).mapToObj(i -> "\"finding " + i + "\"").collect(Collectors.joining(","))
                + "],\"confidence\":\"low\",\"stats\":{"
                + IntStream.range(0, 100).mapToObj(i -> "\"s" + i + "\":" + i).collect(Collectors.joining(","))
                + "}}";
        JsonPath record = withReportFile(report, 0);

        assertThat(record.getString("result.reportStatus")).isEqualTo("truncated");
        String summary = record.getString("result.report.summary");
        assertThat(summary.getBytes(StandardCharsets.UTF_8).length).isEqualTo(2048);
        assertThat(summary).endsWith("…[cut]");
        assertThat(record.getList("result.report.keyFindings")).hasSize(20).startsWith("finding 0");
        assertThat(record.getMap("result.report.stats")).hasSize(32).containsEntry("s31", 31);
        assertThat(record.getString("result.reportDetail"))
                .isEqualTo("summary cut to 2048 bytes; keyFindings: 50 given, 20 kept; stats: 100 given, 32 kept");
    }

    @Test
    void aSymlinkToPasswdIsNeverFollowed() {
        JsonPath record = refused(
                "ln -s /etc/passwd /sluice/out/report.json; echo linked",
                "report.json is a symbolic link; only a regular file is read");
        assertThat(record.prettify()).doesNotContain("root:");
    }

    @Test
    void aFifoIsRefusedWithoutWaitingOnIt() {
        JsonPath record = refused(
                "mkfifo /sluice/out/report.json && echo made", "report.json is a FIFO; only a regular file is read");
        assertThat(record.getString("result.stdout")).isEqualTo("made\n");
    }

    @Test
    void aGibibyteReportIsRefusedFromItsSizeAlone() {
        // Sparse: a gibibyte as the archive states it, without the engine's disk paying for it.
        JsonPath record = refused(
                "dd if=/dev/zero of=/sluice/out/report.json bs=1 count=0 seek=1073741824 2>/dev/null;"
                        + " wc -c < /sluice/out/report.json",
                "report.json is larger than 65536 bytes");
        assertThat(record.getString("result.stdout").trim()).isEqualTo("1073741824");
    }

    /** Runs {@code shell}, which leaves something hostile as the report: the dispatch succeeds, the report is refused. */
    private static JsonPath refused(String shell, String detail) {
        JsonPath record = run(shell);
        assertThat(record.getString("status")).isEqualTo("succeeded");
        assertThat(record.getString("result.reportStatus")).isEqualTo("malformed");
        assertThat(record.getString("result.reportSource")).isEqualTo("file");
        assertThat(record.getString("result.reportDetail")).isEqualTo(detail);
        return record;
    }

    @Test
    void anImageThatCannotWriteFilesReportsOnItsLastStdoutLine() {
        Map<String, Object> body =
                new HashMap<>(script("echo working; printf '{\"sluice.report\": %s}\\n' \"$REPORT\""));
        body.put("env", Map.of("REPORT", VALID));
        JsonPath record = awaitTerminal(submit(body));

        assertThat(record.getString("result.reportStatus")).isEqualTo("present");
        assertThat(record.getString("result.reportSource")).isEqualTo("stdout");
        assertThat(record.getString("result.report.verdict")).isEqualTo("approve");
        assertThat(record.getString("result.stdout")).startsWith("working\n{\"sluice.report\"");
    }

    @Test
    void theDigestStaysWithin512BytesForTheWorstReport() throws Exception {
        String id = "d".repeat(64);
        String report = "{\"summary\":\"" + "\\u0001\\\"😀".repeat(600)
                + "\",\"keyFindings\":[],\"confidence\":\"high\","
                + "\"verdict\":\"" + "\\u0002".repeat(20) + "\",\"filesChanged\":["
                + IntStream.range(0, 150).mapToObj(i -> "\"f\"").collect(Collectors.joining(",")) + "],\"stats\":{"
                + IntStream.range(0, 40)
                        .mapToObj(i -> "\"" + "k".repeat(60) + i + "\":\"" + "\\u0003".repeat(100) + "\"")
                        .collect(Collectors.joining(","))
                + "}}";
        Map<String, Object> body = new HashMap<>(
                script("printf '%s' \"$REPORT\" > /sluice/out/report.json; head -c 5000000 /dev/zero | tr '\\0' x"));
        body.put("id", id);
        body.put("env", Map.of("REPORT", report));
        submit(body);
        assertThat(awaitTerminal(id).getString("result.reportStatus")).isEqualTo("truncated");

        Response answer = given().get("/v1/dispatches/" + id + "/digest");
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.contentType()).startsWith("application/json");
        byte[] digest = answer.asByteArray();
        assertThat(digest.length).isLessThanOrEqualTo(512);
        JsonNode node = JSON.readTree(digest);
        assertThat(node.path("id").asText()).isEqualTo(id);
        assertThat(node.path("stdout").path("bytes").asLong()).isEqualTo(5_000_000);
        assertThat(node.path("stdout").path("truncated").asBoolean()).isTrue();
        assertThat(node.path("reportStatus").asText()).isEqualTo("truncated");
        // The worker's fields take about 375 bytes here: the report's skeleton fits, its texts are shortened.
        JsonNode shown = node.path("report");
        assertThat(shown.path("filesChanged").asInt()).isEqualTo(100);
        assertThat(shown.path("confidence").asText()).isEqualTo("high");
        assertThat(shown.path("verdict").asText()).startsWith("\u0002").endsWith("…");
        assertThat(node.path("artifacts").asInt()).isZero();
        assertThat(node.path("links").path("self").asText()).isEqualTo("/v1/dispatches/" + id);
    }

    @Test
    void aDigestCallbackCarriesTheDigestSignedAsAnyBody() {
        Map<String, Object> body = new HashMap<>(script("printf '%s' \"$REPORT\" > /sluice/out/report.json"));
        body.put("env", Map.of("REPORT", VALID));
        body.put("callbackUrl", receiver.url("/hooks/digest"));
        body.put("callbackMode", "digest");
        String id = submit(body);
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> get(id), r -> "delivered".equals(r.getString("callback.state")));

        Receiver.Request delivery = receiver.requests().get(0);
        byte[] digest = given().get("/v1/dispatches/" + id + "/digest").asByteArray();
        assertThat(delivery.body()).isEqualTo(digest);
        assertThat(delivery.body().length).isLessThanOrEqualTo(512);
        assertThat(delivery.bodyText()).contains("\"reportStatus\":\"present\"").doesNotContain("\"stdout\":\"");
        assertThat(Signatures.verifies(delivery, Signatures.TEST_SECRETS.get(0)))
                .isTrue();
    }

    @Test
    void anUnknownCallbackModeIsRefusedAndNothingIsAccepted() {
        Response refused =
                post(Map.of("id", "mode-refused", "image", TestDocker.AGENT_IMAGE, "callbackMode", "summary"));
        assertThat(refused.statusCode()).isEqualTo(422);
        assertThat(refused.jsonPath().getString("errors[0].field")).isEqualTo("callbackMode");
        assertThat(refused.jsonPath().getString("errors[0].detail")).isEqualTo("must be full or digest");
        given().get("/v1/dispatches/mode-refused").then().statusCode(404);
    }

    @Test
    void theOutDirectoryIsAVolumeOfItsOwnThatGoesWithTheContainer() {
        JsonPath record = withReportFile(VALID, 0);
        String id = record.getString("id");
        try (var clients = TestDocker.clients()) {
            List<InspectVolumeResponse> volumes = clients.control()
                    .listVolumesCmd()
                    .withFilter("label", List.of(Labels.DISPATCH_ID + "=" + id))
                    .exec()
                    .getVolumes();
            assertThat(volumes).hasSize(1);
            String container = clients.control()
                    .listContainersCmd()
                    .withShowAll(true)
                    .withLabelFilter(Map.of(Labels.DISPATCH_ID, id))
                    .exec()
                    .get(0)
                    .getId();

            runtime.remove(container); // the worker's one removal path

            assertThat(clients.control()
                            .listVolumesCmd()
                            .withFilter("label", List.of(Labels.DISPATCH_ID + "=" + id))
                            .exec()
                            .getVolumes())
                    .isNullOrEmpty();
        }
    }
}
