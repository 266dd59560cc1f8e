package dev.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.HostAddresses;
import dev.sluice.testsupport.WorkerProcess;

/**
 * The packaged worker listens on every address unless told otherwise, and
 * then starts only with tokens or with anonymous access asked for by name
 * (ADR 0053). Probes, metrics and the document answer on the management port,
 * never on the API's.
 */
class ClosedByDefaultIT {

    private static final String WARNING = "the API is open to anyone who can reach 0.0.0.0";

    /** The worker as it starts with nothing said: on loopback, without tokens. Its cases only read it. */
    private static WorkerProcess untold;

    private static synchronized WorkerProcess untold() {
        if (untold == null) {
            untold = WorkerProcess.start(WorkerProcess.environment("loopback", Map.of()));
        }
        return untold;
    }

    @AfterAll
    static void stopUntold() {
        if (untold != null) {
            untold.close();
        }
    }

    @Test
    void everyAddressAndNoTokenRefusesToStart() throws IOException {
        Map<String, String> env = WorkerProcess.environment("closed", Map.of("QUARKUS_HTTP_HOST", "0.0.0.0"));
        assertThat(WorkerProcess.refusal(env))
                .containsPattern("ERROR \\[dev.sluice.api.ExposureCheck\\].* refusing to start: the worker"
                        + " listens on 0.0.0.0, beyond loopback")
                .doesNotContain("Error occurred while executing task")
                .contains("SLUICE_API_TOKENS")
                .contains("QUARKUS_HTTP_HOST=127.0.0.1")
                .contains("SLUICE_API_ANONYMOUS=true");
        assertThat(Path.of(env.get("SLUICE_DATA_DIR"), "sluice.mv.db"))
                .as("the store a refused worker never migrated")
                .doesNotExist();
    }

    @Test
    void anonymousOnEveryAddressStartsAndSaysSo() throws IOException {
        try (WorkerProcess worker = WorkerProcess.start(WorkerProcess.environment(
                "anonymous", Map.of("QUARKUS_HTTP_HOST", "0.0.0.0", "SLUICE_API_ANONYMOUS", "true")))) {
            assertThat(worker.status("/v1/dispatches")).isEqualTo(200);
            assertThat(worker.logText()).containsPattern("WARN .*" + WARNING);
        }
    }

    @Test
    void tokensOnEveryAddressStartAndAreRequired() throws IOException {
        try (WorkerProcess worker = WorkerProcess.start(WorkerProcess.environment(
                "tokens", Map.of("QUARKUS_HTTP_HOST", "0.0.0.0", "SLUICE_API_TOKENS", "a-long-enough-test-token")))) {
            assertThat(worker.status("/v1/dispatches")).isEqualTo(401);
            assertThat(worker.logText()).doesNotContain(WARNING.substring(0, 30));
        }
    }

    @Test
    void loopbackAndNoTokenStartsWithTheProbesOnTheManagementPortOnly() throws IOException {
        WorkerProcess worker = untold();
        assertThat(worker.status("/v1/dispatches")).isEqualTo(200);
        assertThat(worker.logText()).doesNotContain(WARNING.substring(0, 30));
        for (String path : List.of("/q/health", "/q/health/live", "/q/health/ready", "/q/metrics", "/q/openapi")) {
            assertThat(worker.probeStatus(path)).as(path).isEqualTo(200);
            assertThat(worker.status(path)).as(path).isEqualTo(404);
        }
        assertThat(worker.probe("/q/metrics").body()).contains("sluice_dispatches_running");
    }

    /**
     * The management port takes no token, so it listens on loopback unless
     * told where else (ADR 0071): asked at this machine's own outside
     * address, nothing answers. Told that address, as the Kubernetes
     * manifests tell it the pod's, it answers there and only there.
     */
    @Test
    void theManagementPortListensOnLoopbackUnlessToldWhere() throws IOException {
        InetAddress outside = HostAddresses.outside();
        WorkerProcess loopback = untold();
        assertThat(loopback.probeStatus("/q/health/live")).isEqualTo(200);
        assertThat(loopback.probeStatusAt(outside, "/q/metrics"))
                .as("the management port at %s", outside)
                .isEmpty();
        assertThat(loopback.logText()).contains("Management interface listening on http://127.0.0.1:");
        try (WorkerProcess worker = WorkerProcess.spawn(WorkerProcess.environment(
                "management-told", Map.of("QUARKUS_MANAGEMENT_HOST", outside.getHostAddress())))) {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .ignoreExceptions()
                    .until(() ->
                            worker.probeStatusAt(outside, "/q/health/started").orElse(0) == 200);
            assertThat(worker.probeStatusAt(outside, "/q/health/live")).hasValue(200);
            assertThat(worker.probeStatusAt(InetAddress.getLoopbackAddress(), "/q/health/live"))
                    .as("loopback, once the port is told another address")
                    .isEmpty();
        }
    }
}
