package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.HostAddresses;
import dev.sluice.testsupport.Program;
import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.Signatures;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerContainer;

/**
 * The JVM image (Dockerfile.jvm) as a user runs it: built by
 * scripts/jvm-image.sh on a base made from Debian's packages, started as the
 * Kubernetes manifests start it (not root, read-only root, the engine's socket
 * mounted with its group added). Probed from outside, it runs a dispatch on
 * the engine beside it and delivers the signed result to a real receiver;
 * stopped with SIGTERM, it drains that dispatch before it exits.
 */
class ImageIT {

    /** A tag of the tests' own: building must not replace an image a user built as sluice:jvm. */
    static final String IMAGE = "sluice:jvm-test";

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final Receiver receiver = Receiver.on("127.0.0.1");

    @BeforeAll
    static void buildImage() {
        // The base is made once per machine (a minute or two); later runs rebuild only the worker's layers.
        Program.Result build = Program.run(
                "", Duration.ofMinutes(15), "env", "SLUICE_IMAGE=" + IMAGE, "scripts/jvm-image.sh", "--no-package");
        assertThat(build.exitCode()).as(build.output()).isZero();
    }

    @AfterAll
    static void closeReceiver() {
        receiver.close();
    }

    @Test
    void theImageRunsADispatchDeliversItsSignedResultAndDrainsOnSigterm() throws Exception {
        assertThat(WorkerContainer.docker("image", "inspect", "-f", "{{.Config.User}}", IMAGE)
                        .stdout()
                        .strip())
                .as("the image's user")
                .isEqualTo("185");
        assertThat(WorkerContainer.docker("image", "inspect", "-f", "{{json .Config.ExposedPorts}}", IMAGE)
                        .stdout()
                        .strip())
                .as("the API's port and the management port")
                .isEqualTo("{\"8080/tcp\":{},\"9000/tcp\":{}}");
        // A container's loopback is its own: the image opens the management port on its addresses (ADR 0071).
        assertThat(WorkerContainer.docker("image", "inspect", "-f", "{{json .Config.Env}}", IMAGE)
                        .stdout())
                .contains("\"QUARKUS_MANAGEMENT_HOST=0.0.0.0\"");
        // -Xshare:on: an AppCDS archive the image's runtime cannot map fails the start instead of slowing it.
        try (WorkerContainer worker = WorkerContainer.start(
                IMAGE, "image-it-" + ProcessHandle.current().pid(), Map.of("JAVA_OPTS", "-Xshare:on"))) {
            assertProbesUp(worker);
            // On the host's network here, so its outside address reaches the container's.
            assertThat(worker.probeStatusAt(HostAddresses.outside(), "/q/health/live"))
                    .hasValue(200);

            String id = "image-" + System.nanoTime();
            Map<String, Object> request = new HashMap<>(WorkerClient.script("sleep 5; echo finished in the drain"));
            request.put("id", id);
            request.put("callbackUrl", receiver.url("/results"));
            worker.submit(request);
            worker.awaitStatus(id, "running");

            worker.terminate();
            await().atMost(Duration.ofSeconds(10))
                    .ignoreExceptions()
                    .until(() -> worker.probeStatus("/q/health/ready") == 503);
            int exit = worker.awaitExit(Duration.ofSeconds(60));

            String logs = worker.logs();
            assertThat(exit).as("exit status after SIGTERM (128 + 15)\n" + logs).isEqualTo(143);
            assertThat(logs).contains("draining: 1 dispatches running").contains("drained: no dispatch left running");
            Receiver.Request delivery = receiver.requests().stream()
                    .filter(r -> r.path().equals("/results"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no callback received; worker log:\n" + logs));
            assertThat(Signatures.verifies(delivery, Signatures.TEST_SECRETS.get(0)))
                    .as("signature")
                    .isTrue();
            JsonNode result = JSON.readTree(delivery.body());
            assertThat(result.path("dispatchId").asText()).isEqualTo(id);
            assertThat(result.path("status").asText()).isEqualTo("succeeded");
            assertThat(result.path("stdout").asText()).isEqualTo("finished in the drain\n");
        }
    }

    /** The three probes, asked from outside the container. */
    private static void assertProbesUp(WorkerContainer worker) throws Exception {
        assertThat(JSON.readTree(worker.probe("/q/health/started").body())
                        .path("status")
                        .asText())
                .isEqualTo("UP");
        assertThat(worker.probeStatus("/q/health/live")).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> worker.probeStatus("/q/health/ready") == 200);
        JsonNode ready = JSON.readTree(worker.probe("/q/health/ready").body());
        assertThat(ready.path("checks").findValuesAsText("name")).contains("docker", "store", "accepting");
        assertThat(ready.path("checks").findValuesAsText("status")).containsOnly("UP");
    }
}
