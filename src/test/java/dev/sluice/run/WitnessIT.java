package dev.sluice.run;

import static dev.sluice.testsupport.Dispatches.awaitStatus;
import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.Digests;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * The output witness against the real engine (ADR 0045): every dispatch's
 * command runs under it, the result sets what arrived against what it
 * counted, and running under it changes nothing an agent can see: its
 * command, its input, its signals and its exit status are its own.
 */
@QuarkusTest
class WitnessIT {

    @TestHTTPResource("/v1/dispatches/")
    URI events;

    /** What {@code yes 'witnessed line' | head -c N} prints. */
    private static byte[] yes(String line, int length) {
        byte[] unit = (line + "\n").getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = unit[i % unit.length];
        }
        return out;
    }

    @Test
    void everyByteOfBothStreamsIsWitnessedAndTheResultIsComplete() {
        byte[] stdout = yes("witnessed line 0123456789", 3_000_000);
        byte[] stderr = yes("to stderr", 70_000);
        JsonPath r = awaitTerminal(submit(
                script("yes 'witnessed line 0123456789' | head -c 3000000; yes 'to stderr' | head -c 70000 >&2")));

        assertThat(r.getString("status")).isEqualTo("succeeded");
        assertThat(r.getString("result.stdoutWitness.state")).isEqualTo("complete");
        assertThat(r.getLong("result.stdoutWitness.writtenBytes")).isEqualTo(stdout.length);
        assertThat(r.getLong("result.stdoutWitness.receivedBytes")).isEqualTo(stdout.length);
        assertThat(r.getLong("result.stdoutWitness.lostBytes")).isZero();
        assertThat(r.getLong("result.stdoutDigest.bytes")).isEqualTo(stdout.length);
        assertThat(r.getString("result.stdoutDigest.sha256")).isEqualTo(Digests.sha256(stdout));
        assertThat(r.getString("result.stdoutDigest.covers")).isEqualTo("stream");
        assertThat(r.getString("result.stdout").getBytes(StandardCharsets.UTF_8))
                .isEqualTo(stdout);
        assertThat(r.getString("result.stderrWitness.state")).isEqualTo("complete");
        assertThat(r.getLong("result.stderrWitness.writtenBytes")).isEqualTo(stderr.length);
        assertThat(r.getString("result.stderrDigest.sha256")).isEqualTo(Digests.sha256(stderr));
    }

    @Test
    void theImagesCommandRunsUnderItAndReadsItsInput() {
        // No command: the image's own (sh), reading the dispatch's input from stdin.
        Map<String, Object> body = new HashMap<>();
        body.put("image", "sluice-agent:test");
        body.put("input", "printf 'from stdin'; exit 4\n");
        JsonPath r = awaitTerminal(submit(body));

        assertThat(r.getString("status")).isEqualTo("failed");
        assertThat(r.getInt("result.exitCode")).isEqualTo(4);
        assertThat(r.getString("result.stdout")).isEqualTo("from stdin");
        assertThat(r.getString("result.stdoutWitness.state")).isEqualTo("complete");
    }

    @Test
    void aCommandThatCannotRunEndsInError() {
        JsonPath r = awaitTerminal(submit(Map.of("image", "sluice-agent:test", "command", List.of("no-such-program"))));

        assertThat(r.getString("status")).isEqualTo("error");
        assertThat(r.getString("result.error.code")).isEqualTo("exec_failed");
        assertThat(r.getString("result.error.message"))
                .isEqualTo("the container started, but its command could not be run: no such file: the command is"
                        + " not in the image, or not on its PATH (ENOENT)");
        assertThat(r.getString("result.exitCode")).isNull();
    }

    @Test
    void aStopSignalReachesTheCommandAndItsExitStatusIsItsOwn() throws Exception {
        String id = submit(script("trap 'echo got TERM; exit 7' TERM; while :; do echo ready; sleep 1; done"));
        awaitStatus(id, "running");
        awaitLiveLine(id, "ready");
        given().delete("/v1/dispatches/" + id).then().statusCode(202);
        JsonPath r = awaitTerminal(id);

        assertThat(r.getString("status")).isEqualTo("cancelled");
        assertThat(r.getInt("result.exitCode")).isEqualTo(7);
        assertThat(r.getString("result.stdout")).matches("(ready\n)+got TERM\n");
        assertThat(r.getString("result.stdoutWitness.state")).isEqualTo("complete");
    }

    /**
     * Until the process has set its trap: a line it prints after is in the dispatch's live output. Read from
     * the event stream, which every engine serves while the dispatch runs: a running dispatch's log is not
     * proven whole on every engine (Podman's, docs/operations.md "Engines").
     */
    private void awaitLiveLine(String id, String line) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(events.resolve(id + "/events"))
                .timeout(Duration.ofSeconds(30))
                .build();
        HttpResponse<Stream<String>> response =
                HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofLines());
        try (Stream<String> lines = response.body()) {
            CompletableFuture<Optional<String>> seen = CompletableFuture.supplyAsync(
                    () -> lines.filter(l -> l.startsWith("data:") && l.contains("\"text\":\"" + line + "\\n"))
                            .findFirst());
            assertThat(seen.get(30, TimeUnit.SECONDS))
                    .as("a live line %s of dispatch %s", line, id)
                    .isPresent();
        }
    }
}
