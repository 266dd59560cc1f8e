package dev.sluice.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.Digests;
import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.Signatures;
import dev.sluice.testsupport.TestDocker;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;
import dev.sluice.worker.CrashPoint;

/**
 * The packaged worker, killed at every named step of a dispatch's life and
 * started again over the same store: each dispatch ends with the result its
 * process earned, delivered, every delivery of it carrying the same body.
 * The six crash points run side by side (three at a time), each with workers,
 * a store and a receiver of its own; the other cases run one after another.
 */
class CrashRecoveryIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SCRIPT = "echo first line; sleep 2; echo to stderr >&2; echo last line; exit 3";

    private final Receiver receiver = Receiver.on("127.0.0.1");

    @AfterEach
    void close() {
        receiver.close();
    }

    private void dispatch(WorkerProcess worker, String id, String script, Map<String, Object> extra)
            throws IOException {
        worker.submit(request(id, script, extra));
    }

    private Map<String, Object> request(String id, String script, Map<String, Object> extra) {
        Map<String, Object> body = new HashMap<>(WorkerClient.script(script));
        body.put("id", id);
        body.put("callbackUrl", receiver.url("/hook/" + id));
        body.putAll(extra);
        return body;
    }

    /**
     * How many crash points run side by side. Each point is a worker armed to halt there and a worker started
     * after it over the same store, with a worker id, data directory, ports and receiver of its own, so no
     * point sees another's dispatch or callback. Three at once keep both cores busy through the points' twelve
     * starts and waits without starting more JVMs together than the start-up deadline allows for on a loaded
     * machine.
     */
    private static final int POINTS_AT_ONCE = 3;

    /** Each crash point's run, started together by the first of their cases; each case joins its own. */
    private static final Map<CrashPoint, CompletableFuture<Void>> CRASHES = new EnumMap<>(CrashPoint.class);

    private static ExecutorService crashing;

    private static synchronized CompletableFuture<Void> crash(CrashPoint point) {
        if (CRASHES.isEmpty()) {
            crashing = Executors.newFixedThreadPool(POINTS_AT_ONCE);
            for (CrashPoint p : CrashPoint.values()) {
                CRASHES.put(p, CompletableFuture.runAsync(() -> killedAt(p), crashing));
            }
        }
        return CRASHES.get(point);
    }

    @AfterAll
    static void stopCrashing() {
        if (crashing != null) {
            crashing.shutdownNow();
        }
    }

    /** Fails with the point's own assertion, as if the point had run in this case alone. */
    @ParameterizedTest
    @EnumSource(CrashPoint.class)
    void aWorkerKilledAtAnyStepLosesNothing(CrashPoint point) throws Throwable {
        try {
            crash(point).get(5, TimeUnit.MINUTES);
        } catch (ExecutionException e) {
            throw e.getCause();
        }
    }

    private static void killedAt(CrashPoint point) {
        try (Receiver receiver = Receiver.on("127.0.0.1")) {
            Path data = WorkerProcess.freshDataDir("crash-" + point);
            Map<String, String> env =
                    WorkerProcess.baseEnvironment(data, "crash-" + point.name().toLowerCase());
            // Twelve workers on two cores, each running one dispatch: warming up costs more than it spares.
            env.put("SLUICE_WORKER_WARM_UP", "false");
            String id = "crash-" + point.name().toLowerCase().replace('_', '-') + "-" + System.nanoTime();
            Map<String, Object> request = new HashMap<>(WorkerClient.script(SCRIPT));
            request.put("id", id);
            request.put("callbackUrl", receiver.url("/hook/" + id));

            Map<String, String> armed = new HashMap<>(env);
            armed.put("SLUICE_CHAOS_HALT_AT", point.name());
            try (WorkerProcess first = WorkerProcess.start(armed)) {
                try {
                    first.dispatch(request);
                } catch (IOException e) {
                    // The worker died before answering: the client cannot tell whether it was accepted.
                }
                assertThat(first.awaitExit(Duration.ofSeconds(60)))
                        .as("halted at %s", point)
                        .isTrue();
                assertThat(first.exitValue()).isEqualTo(137);
            }
            try (WorkerProcess second = WorkerProcess.start(env)) {
                // So it sends the same request again: with its own id that is safe, never a second dispatch.
                second.submit(request);
                JsonNode r = second.awaitDelivered(id);
                assertThat(r.path("status").asText()).isEqualTo("failed");
                JsonNode result = r.path("result");
                assertThat(result.path("exitCode").asInt()).isEqualTo(3);
                assertThat(result.path("stdout").asText()).isEqualTo("first line\nlast line\n");
                assertThat(result.path("stderr").asText()).isEqualTo("to stderr\n");
                // Captured live or read back from the log, whichever the crash left: the same digests.
                assertThat(result.path("stdoutDigest")).isEqualTo(digest("first line\nlast line\n"));
                assertThat(result.path("stderrDigest")).isEqualTo(digest("to stderr\n"));
                // A container that outlived its worker still ran under the witness, whose record the next one reads.
                assertThat(result.path("stdoutWitness").path("state").asText()).isEqualTo("complete");

                List<Receiver.Request> deliveries = receiver.requests();
                assertThat(deliveries).isNotEmpty().allSatisfy(d -> {
                    assertThat(d.header("webhook-id")).isEqualTo("msg_" + id);
                    assertThat(d.bodyText()).isEqualTo(deliveries.get(0).bodyText());
                    assertThat(Signatures.verifies(d, Signatures.TEST_SECRETS.get(0)))
                            .isTrue();
                });
                assertThat(JSON.readTree(deliveries.get(0).body())).isEqualTo(result);
                if (point == CrashPoint.DURING_DELIVERY) {
                    assertThat(deliveries).hasSize(2); // sent, not recorded, sent again: at least once, same body
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void queuedAndRunningDispatchesSurviveASigkill() throws Exception {
        Path data = WorkerProcess.freshDataDir("sigkill");
        Map<String, String> env = WorkerProcess.baseEnvironment(data, "sigkill");
        env.put("SLUICE_DISPATCH_MAX_RUNNING", "1");
        String running = "running-" + System.nanoTime();
        String queued = "queued-" + System.nanoTime();
        try (WorkerProcess first = WorkerProcess.start(env)) {
            dispatch(first, running, "echo working; sleep 3; echo done", Map.of());
            dispatch(first, queued, "echo waited my turn", Map.of());
            first.awaitStatus(running, "running");
            assertThat(first.record(queued).path("status").asText()).isEqualTo("queued");
            first.kill();
        }
        try (WorkerProcess second = WorkerProcess.start(env)) {
            JsonNode r = second.awaitDelivered(running);
            assertThat(r.path("result").path("stdout").asText()).isEqualTo("working\ndone\n");
            assertThat(r.path("result").path("logs").path("recovered").asBoolean())
                    .isTrue();
            assertThat(second.awaitDelivered(queued)
                            .path("result")
                            .path("stdout")
                            .asText())
                    .isEqualTo("waited my turn\n");
        }
    }

    /**
     * A stream of 100,000 lines (575 KiB), half of it printed before the kill: far past the 1 KiB cap, so
     * both results are cut and marked, and the part printed before the kill alone is more than the witness
     * keeps of a stream's end (256 KiB), so the result read back cannot have been made whole from the
     * witness's copy. Four times as many lines added nothing to prove but log records to read back, the
     * engine's JSON-per-line log taking some 90 bytes for each 7-byte line, and on Podman the log is read
     * a second time to count it.
     */
    @Test
    void aResultReadBackFromTheLogAfterARestartCarriesTheDigestsOfALiveCapture() throws Exception {
        Path data = WorkerProcess.freshDataDir("digests");
        Map<String, String> env = WorkerProcess.baseEnvironment(data, "digests");
        String script = "seq 1 50000; sleep 3; seq 50001 100000; seq 1 30000 >&2";
        Map<String, Object> cap = Map.of("output", Map.of("stdoutCapBytes", 1024, "stderrCapBytes", 1024));
        // Ids of one length, so the markers, and so the cuts, are alike but for the id and the nonce.
        long n = System.nanoTime();
        String recovered = "digests-a-" + n;
        String live = "digests-b-" + n;
        try (WorkerProcess first = WorkerProcess.start(env)) {
            dispatch(first, recovered, script, cap);
            first.awaitStatus(recovered, "running");
            first.kill();
        }
        try (WorkerProcess second = WorkerProcess.start(env)) {
            JsonNode fromLog = second.awaitDelivered(recovered).path("result");
            dispatch(second, live, script, cap);
            JsonNode captured = second.awaitDelivered(live).path("result");

            assertThat(fromLog.path("logs").path("recovered").asBoolean()).isTrue();
            assertThat(captured.path("logs").path("recovered").asBoolean()).isFalse();
            StringBuilder stdout = new StringBuilder();
            for (int i = 1; i <= 100000; i++) {
                stdout.append(i).append('\n');
            }
            StringBuilder stderr = new StringBuilder();
            for (int i = 1; i <= 30000; i++) {
                stderr.append(i).append('\n');
            }
            for (JsonNode result : List.of(fromLog, captured)) {
                assertThat(result.path("stdoutDigest")).isEqualTo(digest(stdout.toString()));
                assertThat(result.path("stderrDigest")).isEqualTo(digest(stderr.toString()));
            }
            // Each result has its own nonce, in its marker and its records; the rest of the text is the same.
            String nonce = fromLog.path("stdoutOverflow").path("nonce").asText();
            String other = captured.path("stdoutOverflow").path("nonce").asText();
            assertThat(nonce).isNotEqualTo(other);
            assertThat(fromLog.path("stdout").asText()).contains("[... sluice " + nonce + ": ");
            assertThat(fromLog.path("stdout").asText().replace(nonce, other).replace(recovered, live))
                    .isEqualTo(captured.path("stdout").asText());
            assertThat(fromLog.path("stderrOverflow").path("nonce").asText()).isEqualTo(nonce);
        }
    }

    /** The digest of the whole stream, as a result that received all of it gives it (docs/api.md 7.7). */
    private static JsonNode digest(String stream) {
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        return JSON.valueToTree(Map.of(
                "sha256",
                Digests.sha256(bytes),
                "bytes",
                bytes.length,
                "lines",
                (int) Digests.lines(bytes),
                "covers",
                "stream"));
    }

    @Test
    void aDispatchWithSecretsIsStoppedNotRunUnmaskedAfterARestart() throws Exception {
        Path data = WorkerProcess.freshDataDir("secrets");
        Map<String, String> env = WorkerProcess.baseEnvironment(data, "crash-secrets");
        String id = "secret-" + System.nanoTime();
        try (WorkerProcess first = WorkerProcess.start(env)) {
            dispatch(first, id, "echo \"$TOKEN\"; sleep 30", Map.of("secrets", Map.of("TOKEN", "do-not-leak-me")));
            first.awaitStatus(id, "running");
            first.kill();
        }
        try (WorkerProcess second = WorkerProcess.start(env)) {
            JsonNode r = second.awaitDelivered(id);
            assertThat(r.path("status").asText()).isEqualTo("error");
            assertThat(r.path("result").path("error").path("code").asText()).isEqualTo("secrets_unavailable");
            assertThat(r.toString()).doesNotContain("do-not-leak-me");
            assertThat(second.status("/v1/dispatches/" + id + "/logs/stdout")).isEqualTo(410);
            assertThat(receiver.requests())
                    .allSatisfy(d -> assertThat(d.bodyText()).doesNotContain("do-not-leak-me"));
        }
    }

    @Test
    void sigtermDrainsRunningDispatchesWhileRefusingNewOnes() throws Exception {
        Path data = WorkerProcess.freshDataDir("drain");
        Map<String, String> env = WorkerProcess.baseEnvironment(data, "drain");
        String id = "drain-" + System.nanoTime();
        try (WorkerProcess worker = WorkerProcess.start(env)) {
            dispatch(worker, id, "sleep 3; echo finished in the drain", Map.of());
            worker.awaitStatus(id, "running");
            worker.terminate();

            await().atMost(Duration.ofSeconds(5)).until(() -> worker.probeStatus("/q/health/ready") == 503);
            var refused = worker.dispatch(Map.of("image", TestDocker.AGENT_IMAGE));
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.headers().firstValue("Retry-After")).isPresent();
            assertThat(JSON.readTree(refused.body()).path("type").asText()).endsWith("shutting-down");
            assertThat(worker.probeStatus("/q/health/live")).isEqualTo(200);

            assertThat(worker.awaitExit(Duration.ofSeconds(30))).isTrue();
            assertThat(worker.logText()).contains("drained: no dispatch left running");
        }
        try (WorkerProcess again = WorkerProcess.start(env)) {
            JsonNode r = again.awaitDelivered(id);
            assertThat(r.path("result").path("stdout").asText()).isEqualTo("finished in the drain\n");
            assertThat(r.path("result").path("logs").path("recovered").asBoolean())
                    .isFalse();
        }
    }

    @Test
    void whatOutlastsTheDrainPeriodIsLeftForReconciliation() throws Exception {
        Path data = WorkerProcess.freshDataDir("drain-short");
        Map<String, String> env = WorkerProcess.baseEnvironment(data, "drain-short");
        env.put("SLUICE_WORKER_DRAIN_PERIOD", "1s");
        String id = "outlast-" + System.nanoTime();
        try (WorkerProcess worker = WorkerProcess.start(env)) {
            dispatch(worker, id, "sleep 6; echo outlived my worker", Map.of());
            worker.awaitStatus(id, "running");
            worker.terminate();
            assertThat(worker.awaitExit(Duration.ofSeconds(30))).isTrue();
            assertThat(worker.logText()).contains("left running for reconciliation");
        }
        try (WorkerProcess again = WorkerProcess.start(env)) {
            JsonNode r = again.awaitDelivered(id);
            assertThat(r.path("status").asText()).isEqualTo("succeeded");
            assertThat(r.path("result").path("stdout").asText()).isEqualTo("outlived my worker\n");
            assertThat(r.path("result").path("logs").path("recovered").asBoolean())
                    .isTrue();
        }
    }
}
