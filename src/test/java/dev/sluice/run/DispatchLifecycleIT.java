package dev.sluice.run;

import static dev.sluice.testsupport.Dispatches.awaitStatus;
import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;

import dev.sluice.container.engine.DockerClients;
import dev.sluice.store.StoreIdentity;
import dev.sluice.testsupport.Digests;
import dev.sluice.testsupport.Management;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/** One dispatch at a time, end to end over HTTP against the real engine. */
@QuarkusTest
class DispatchLifecycleIT {

    @Inject
    DockerClients docker;

    @Inject
    StoreIdentity store;

    @Test
    void successReturnsExactOutputOfBothStreams() {
        String id = submit(script("printf 'line one\\nline two\\n'; printf 'warning\\n' >&2"));
        JsonPath r = awaitTerminal(id);

        assertThat(r.getString("status")).isEqualTo("succeeded");
        assertThat(r.getString("result.status")).isEqualTo("succeeded");
        assertThat(r.getInt("result.exitCode")).isZero();
        assertThat(r.getString("result.stdout")).isEqualTo("line one\nline two\n");
        assertThat(r.getString("result.stderr")).isEqualTo("warning\n");
        assertThat(r.getMap("result")).doesNotContainKeys("stdoutOverflow", "stderrOverflow");
        assertThat(r.getString("result.dispatchId")).isEqualTo(id);
        assertThat(r.getString("result.logs.stdout")).isEqualTo("/v1/dispatches/" + id + "/logs/stdout");
        assertThat(Instant.parse(r.getString("result.finishedAt")))
                .isAfterOrEqualTo(Instant.parse(r.getString("result.startedAt")));
        assertThat(r.getLong("result.durationMs")).isGreaterThanOrEqualTo(0);

        String metrics = Management.given()
                .get("/q/metrics")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(metrics)
                .contains("sluice_dispatches_accepted_total")
                .contains("sluice_dispatches_running")
                .contains("sluice_dispatches_queued")
                .contains("sluice_dispatches_finished_total{status=\"succeeded\"}");
    }

    @Test
    void theCapsADispatchAsksForBoundItsResult() {
        Map<String, Object> body = new HashMap<>(script("yes out | head -c 20000; yes err | head -c 20000 >&2"));
        body.put("output", Map.of("stdoutCapBytes", 2048, "stderrCapBytes", 1500));
        JsonPath r = awaitTerminal(submit(body));

        assertThat(r.getLong("result.stdoutOverflow.originalBytes")).isEqualTo(20000);
        assertThat(r.getLong("result.stdoutOverflow.keptBytes")).isBetween(1024L, 2048L);
        assertThat(r.getString("result.stdout").getBytes(StandardCharsets.UTF_8).length)
                .isEqualTo(r.getInt("result.stdoutOverflow.keptBytes"));
        assertThat(r.getLong("result.stderrOverflow.originalBytes")).isEqualTo(20000);
        assertThat(r.getLong("result.stderrOverflow.keptBytes")).isBetween(750L, 1500L);
    }

    @Test
    void withoutCapsStderrIsBoundedByTheDefaultOf256KiB() {
        JsonPath r = awaitTerminal(submit(script("yes err | head -c 400000 >&2; echo fine")));

        assertThat(r.getString("result.stdout")).isEqualTo("fine\n");
        assertThat(r.getLong("result.stderrOverflow.originalBytes")).isEqualTo(400000);
        // Within the default cap, and most of it used: a default of another size fails one bound or the other.
        assertThat(r.getLong("result.stderrOverflow.keptBytes")).isBetween(200L << 10, 256L << 10);
    }

    @Test
    void nonZeroExitIsFailedWithTheCode() {
        JsonPath r = awaitTerminal(submit(script("echo failing >&2; exit 42")));
        assertThat(r.getString("status")).isEqualTo("failed");
        assertThat(r.getInt("result.exitCode")).isEqualTo(42);
        assertThat(r.getString("result.stderr")).isEqualTo("failing\n");
    }

    @Test
    void inputIsWrittenToStdinThenClosed() {
        Map<String, Object> body = new HashMap<>(script("cat; echo '<eof>'"));
        body.put("input", "first line\nsecond line\n");
        JsonPath r = awaitTerminal(submit(body));
        assertThat(r.getString("status")).isEqualTo("succeeded");
        assertThat(r.getString("result.stdout")).isEqualTo("first line\nsecond line\n<eof>\n");
    }

    @Test
    void aProcessIgnoringSigtermIsKilledAfterTimeoutPlusGrace() {
        Map<String, Object> body = new HashMap<>(script("trap '' TERM; echo started; sleep 60"));
        body.put("timeout", "PT2S");
        String id = submit(body);
        JsonPath r = awaitTerminal(id, Duration.ofSeconds(30));

        assertThat(r.getString("status")).isEqualTo("timed_out");
        assertThat(r.getInt("result.exitCode")).isEqualTo(137); // SIGKILL, after the grace period
        assertThat(r.getString("result.stdout")).isEqualTo("started\n");
        // Not killed before timeout + grace (2 s + 2 s in the test profile), and well before the 60 s sleep.
        assertThat(r.getLong("result.durationMs")).isBetween(4_000L, 30_000L);
    }

    @Test
    void aContainerThatPrintsThenGoesQuietIsStoppedAsIdle() {
        // It prints on both streams, then nothing: SIGTERM ends it (143) once 2 s pass without output.
        Map<String, Object> body = new HashMap<>(script("echo started; sleep 1; echo still here >&2; sleep 60"));
        body.put("idleTimeout", "PT2S");
        JsonPath r = awaitTerminal(submit(body), Duration.ofSeconds(40));

        assertThat(r.getString("status")).isEqualTo("timed_out");
        assertThat(r.getString("result.error.code")).isEqualTo("idle");
        assertThat(r.getInt("result.exitCode")).isEqualTo(143);
        assertThat(r.getString("result.stdout")).isEqualTo("started\n");
        assertThat(r.getString("result.stderr")).isEqualTo("still here\n");
    }

    @Test
    void aContainerThatKeepsPrintingIsNotIdle() {
        // Quiet for at most a second at a time, against an idle timeout of 20 s.
        Map<String, Object> body = new HashMap<>(script("for i in 1 2 3 4; do echo tick $i; sleep 1; done"));
        body.put("idleTimeout", "PT20S");
        JsonPath r = awaitTerminal(submit(body));

        assertThat(r.getString("status")).isEqualTo("succeeded");
        assertThat(r.getString("result.error")).isNull();
        assertThat(r.getString("result.stdout")).isEqualTo("tick 1\ntick 2\ntick 3\ntick 4\n");
    }

    @Test
    void cancellingARunningDispatchStopsItsContainer() {
        String id = submit(script("echo begun; sleep 60"));
        awaitStatus(id, "running");

        given().delete("/v1/dispatches/" + id).then().statusCode(202);
        JsonPath r = awaitTerminal(id, Duration.ofSeconds(20));
        assertThat(r.getString("status")).isEqualTo("cancelled");
        assertThat(r.getInt("result.exitCode")).isEqualTo(143); // SIGTERM was enough
        assertThat(r.getLong("result.durationMs")).isLessThan(20_000L);

        // Idempotent, and a finished dispatch is left as it is.
        given().delete("/v1/dispatches/" + id).then().statusCode(200);
        assertThat(awaitTerminal(id).getString("status")).isEqualTo("cancelled");
    }

    @Test
    void anUnknownImageEndsAsErrorWithAStableCode() {
        // Under "never" a missing image is not pulled: it stays image_not_found (ADR 0059).
        JsonPath r = awaitTerminal(submit(Map.of("image", "sluice-test/no-such-image:1", "imagePullPolicy", "never")));
        assertThat(r.getString("status")).isEqualTo("error");
        assertThat(r.getString("result.error.code")).isEqualTo("image_not_found");
        assertThat(r.getString("result.error.message")).contains("sluice-test/no-such-image:1");
        assertThat(r.getString("result.stdout")).isEmpty();
    }

    @Test
    void secretsReachTheProcessAndAreMaskedInOutputAndLogs() {
        Map<String, Object> body = new HashMap<>(script("echo \"token=$API_TOKEN\"; echo \"$API_TOKEN\" >&2"));
        body.put("secrets", Map.of("API_TOKEN", "tok-5ecret-value"));
        String id = submit(body);
        JsonPath r = awaitTerminal(id);

        assertThat(r.getString("result.stdout")).isEqualTo("token=****************\n");
        assertThat(r.getString("result.stderr")).isEqualTo("****************\n");
        assertThat(r.prettify()).doesNotContain("tok-5ecret-value");
        String log = given().get("/v1/dispatches/" + id + "/logs/stdout")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(log).isEqualTo("token=****************\n");
        // A range that cuts through the secret still shows none of it.
        String cut = given().queryParam("offset", 9)
                .queryParam("limit", 4)
                .get("/v1/dispatches/" + id + "/logs/stdout")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(cut).isEqualTo("****");
        // The digest is of the stream as the logs endpoint serves it: masked, never taken over the secret.
        assertThat(r.getString("result.stdoutDigest.sha256"))
                .isEqualTo(Digests.sha256(log.getBytes(StandardCharsets.UTF_8)))
                .isNotEqualTo(Digests.sha256("token=tok-5ecret-value\n".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void containersAreCreatedHardenedAndLabelled() {
        String id = submit(script("id -u; grep -E '^(NoNewPrivs|CapPrm|CapEff|CapBnd)' /proc/self/status;"
                + " touch /work/ok && echo writable"));
        JsonPath r = awaitTerminal(id);
        assertThat(r.getString("result.stdout"))
                .contains("65534\n")
                .contains("NoNewPrivs:\t1")
                // Not one capability, even in the bounding set: what the engine was asked for is what it did.
                .contains("CapPrm:\t0000000000000000", "CapEff:\t0000000000000000", "CapBnd:\t0000000000000000")
                .contains("writable");

        InspectContainerResponse c =
                docker.control().inspectContainerCmd(containerOf(id)).exec();
        assertThat(c.getConfig().getTty()).isFalse();
        assertThat(c.getConfig().getLabels())
                .containsEntry("dev.sluice.dispatch-id", id)
                .containsEntry(
                        "dev.sluice.worker-id", ConfigProvider.getConfig().getValue("sluice.worker.id", String.class))
                .containsEntry("dev.sluice.store-id", store.id());
        assertThat(c.getConfig().getUser()).isEqualTo("65534:65534");
        var host = c.getHostConfig();
        assertThat(host.getNetworkMode()).isEqualTo("none");
        // Docker shows the ALL it was asked for; Podman the capabilities that ALL took away.
        assertThat(host.getCapDrop()).extracting(Enum::name).isNotEmpty();
        assertThat(host.getCapAdd()).isNullOrEmpty();
        assertThat(host.getSecurityOpts()).contains("no-new-privileges");
        assertThat(host.getReadonlyRootfs()).isTrue();
        assertThat(host.getTmpFs()).containsKeys("/work", "/tmp");
        // The witness is the container's init (ADR 0070): the engine adds none before it.
        assertThat(host.getInit()).isNotEqualTo(Boolean.TRUE);
        assertThat(c.getConfig().getEntrypoint()[0]).isEqualTo("/sluice/witness");
        assertThat(c.getConfig().getLabels().get("dev.sluice.witness-key")).matches("[0-9a-f]{64}");
        assertThat(host.getAutoRemove()).isNotEqualTo(Boolean.TRUE);
        assertThat(host.getMemory()).isEqualTo(256L << 20);
        assertThat(host.getPidsLimit()).isEqualTo(256L);
        assertThat(host.getNanoCPUs()).isEqualTo(1_000_000_000L);
        assertThat(host.getLogConfig().getType().getType()).isEqualTo("json-file");
        if (docker.identity().podman()) {
            // Podman inspects no log options: it takes max-size alone, as its one file's bound (ADR 0078).
            assertThat(host.getLogConfig().getConfig()).isNullOrEmpty();
            return;
        }
        // The default budget that keeps a GiB of text whole, its rotated files compressed (ADR 0032).
        assertThat(host.getLogConfig().getConfig())
                .containsEntry("max-size", Long.toString(128L << 20))
                .containsEntry("max-file", "16")
                .containsEntry("compress", "true");
    }

    @Test
    void logRangesEqualWhatTheEngineHolds() throws Exception {
        String id = submit(script("seq 1 20000; seq 1 3000 >&2"));
        awaitTerminal(id);
        String containerId = containerOf(id);
        byte[] stdout = dockerLogs(containerId, StreamType.STDOUT);
        byte[] stderr = dockerLogs(containerId, StreamType.STDERR);
        assertThat(stdout).hasSizeGreaterThan(100_000);

        for (long[] range : new long[][] {{0, 10}, {1000, 4096}, {stdout.length - 7, 100}, {stdout.length + 5, 10}}) {
            var response = given().queryParam("offset", range[0])
                    .queryParam("limit", range[1])
                    .get("/v1/dispatches/" + id + "/logs/stdout")
                    .then()
                    .statusCode(200)
                    .extract();
            int from = (int) Math.min(range[0], stdout.length);
            int to = (int) Math.min(range[0] + range[1], stdout.length);
            assertThat(response.asByteArray()).isEqualTo(java.util.Arrays.copyOfRange(stdout, from, to));
            assertThat(response.header("Sluice-Log-Offset")).isEqualTo(Long.toString(range[0]));
            assertThat(response.header("Sluice-Log-End"))
                    .isEqualTo(Boolean.toString(range[0] + range[1] >= stdout.length));
        }
        byte[] all = given().queryParam("limit", 10_000_000)
                .get("/v1/dispatches/" + id + "/logs/stderr")
                .then()
                .statusCode(200)
                .extract()
                .asByteArray();
        assertThat(all).isEqualTo(stderr);
    }

    @Test
    void eachStreamCarriesTheDigestOfItsWholeLogAndItsMarkerTheRecordsNonce() throws Exception {
        int tenMebibytes = 10 << 20;
        // Distinct lines of 100 bytes, so a cut in the wrong place shows: 105,000 log entries for the engine to
        // write and read back, not the 1.5 million of short numbered lines, which took most of a minute.
        String id = submit(script("awk 'BEGIN { for (i = 1; i <= 110000; i++) printf \"%099d\\n\", i }' | head -c "
                + tenMebibytes + "; seq 1 50000 >&2"));
        JsonPath r = awaitTerminal(id);
        String containerId = containerOf(id);

        for (StreamType stream : new StreamType[] {StreamType.STDOUT, StreamType.STDERR}) {
            String name = stream.name().toLowerCase(java.util.Locale.ROOT);
            byte[] log = dockerLogs(containerId, stream);
            assertThat(r.getString("result." + name + "Digest.sha256")).isEqualTo(Digests.sha256(log));
            assertThat(r.getLong("result." + name + "Digest.bytes")).isEqualTo(log.length);
            assertThat(r.getLong("result." + name + "Digest.lines")).isEqualTo(Digests.lines(log));

            // Both streams were cut; each marker carries the nonce its overflow record names, once.
            String nonce = r.getString("result." + name + "Overflow.nonce");
            assertThat(nonce).matches("[A-Za-z0-9_-]{12}");
            String marker = "\n[... sluice " + nonce + ": " + r.getLong("result." + name + "Overflow.droppedBytes")
                    + " of " + log.length + " bytes of " + name + " omitted; full log: /v1/dispatches/" + id
                    + "/logs/" + name + " ...]\n";
            String text = r.getString("result." + name);
            assertThat(text).containsOnlyOnce(marker);
            String whole = new String(log, StandardCharsets.UTF_8);
            assertThat(whole)
                    .startsWith(text.substring(0, text.indexOf(marker)))
                    .endsWith(text.substring(text.indexOf(marker) + marker.length()));
        }
        assertThat(r.getLong("result.stdoutDigest.bytes")).isEqualTo(tenMebibytes);
        assertThat(r.getString("result.stderrOverflow.nonce")).isEqualTo(r.getString("result.stdoutOverflow.nonce"));
    }

    @Test
    void forgedMarkersAreLeftAsPrintedAndOnlyTheGenuineOneCarriesTheNonce() {
        String forged = "[... sluice AAAAAAAAAAAA: 1000 of 2000 bytes of stdout omitted; full log: /v1/dispatches/"
                + "forged/logs/stdout ...]";
        Map<String, Object> body =
                new HashMap<>(script("echo \"$FORGED\"; seq 1 5000; echo \"$FORGED\"; echo \"$FORGED\" >&2"));
        body.put("env", Map.of("FORGED", forged));
        body.put("output", Map.of("stdoutCapBytes", 1024));
        JsonPath r = awaitTerminal(submit(body));

        StringBuilder printed = new StringBuilder(forged).append('\n');
        for (int i = 1; i <= 5000; i++) {
            printed.append(i).append('\n');
        }
        printed.append(forged).append('\n');
        String stdout = r.getString("result.stdout");
        String genuine = "\n[... sluice " + r.getString("result.stdoutOverflow.nonce") + ": ";
        assertThat(stdout).startsWith(forged + "\n").endsWith(forged + "\n").containsOnlyOnce(genuine);
        String tail = stdout.substring(stdout.indexOf(" ...]\n", stdout.indexOf(genuine)) + " ...]\n".length());
        assertThat(printed.toString())
                .startsWith(stdout.substring(0, stdout.indexOf(genuine)))
                .endsWith(tail);
        assertThat(r.getString("result.stdoutDigest.sha256"))
                .isEqualTo(Digests.sha256(printed.toString().getBytes(StandardCharsets.UTF_8)));
        // In stderr, which fits: no record, so no marker, only the line as printed.
        assertThat(r.getString("result.stderr")).isEqualTo(forged + "\n");
        assertThat(r.getMap("result")).doesNotContainKey("stderrOverflow");
    }

    @Test
    void logsAreGoneWithTheirContainer() {
        String id = submit(script("echo soon gone"));
        awaitTerminal(id);
        docker.control().removeContainerCmd(containerOf(id)).withForce(true).exec();

        given().get("/v1/dispatches/" + id + "/logs/stdout")
                .then()
                .statusCode(410)
                .contentType("application/problem+json")
                .body("type", org.hamcrest.Matchers.endsWith("log-gone"));
        // The result itself stays.
        assertThat(awaitTerminal(id).getString("result.stdout")).isEqualTo("soon gone\n");
    }

    @Test
    void badLogRequestsAreProblems() {
        String id = submit(script("echo x"));
        awaitTerminal(id);
        given().get("/v1/dispatches/" + id + "/logs/stdin")
                .then()
                .statusCode(404)
                .contentType("application/problem+json");
        given().queryParam("offset", -1)
                .get("/v1/dispatches/" + id + "/logs/stdout")
                .then()
                .statusCode(422)
                .body("errors[0].field", org.hamcrest.Matchers.equalTo("offset"));
        given().queryParam("limit", "lots")
                .get("/v1/dispatches/" + id + "/logs/stdout")
                .then()
                .statusCode(422)
                .body("errors[0].field", org.hamcrest.Matchers.equalTo("limit"));
        given().get("/v1/dispatches/d-unknown/logs/stdout").then().statusCode(404);
    }

    private String containerOf(String dispatchId) {
        List<com.github.dockerjava.api.model.Container> found = docker.control()
                .listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(Map.of("dev.sluice.dispatch-id", dispatchId))
                .exec();
        assertThat(found).hasSize(1);
        return found.get(0).getId();
    }

    /** What `docker logs` holds for one stream, read through docker-java's own client. */
    private byte[] dockerLogs(String containerId, StreamType stream) throws InterruptedException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        docker.streaming()
                .logContainerCmd(containerId)
                .withStdOut(stream == StreamType.STDOUT)
                .withStdErr(stream == StreamType.STDERR)
                .withFollowStream(false)
                .exec(new ResultCallback.Adapter<Frame>() {
                    @Override
                    public void onNext(Frame frame) {
                        out.write(frame.getPayload(), 0, frame.getPayload().length);
                    }
                })
                .awaitCompletion();
        return out.toByteArray();
    }
}
