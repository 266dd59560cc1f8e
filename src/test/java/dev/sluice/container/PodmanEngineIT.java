package dev.sluice.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Container;

import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.sandbox.Labels;
import dev.sluice.testsupport.Digests;
import dev.sluice.testsupport.TestDocker;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;

/**
 * The packaged worker as shipped against Podman's Docker-compatible API
 * (ADR 0078), the engine scripts/podman.sh starts: the Podman lane
 * (scripts/test.sh --podman) points every test of its subset at that socket
 * with {@code DOCKER_HOST} and {@code SLUICE_DOCKER_HOST}. A worker that asks
 * Podman for what it cannot do refuses to start, naming each setting; one
 * that asks for nothing of the kind captures 64 MiB byte for byte under the
 * witness, in a container Podman says it created hardened, as the numeric
 * user the worker chose.
 */
@Tag("podman")
class PodmanEngineIT {

    private static final int SIXTY_FOUR_MEBIBYTES = 64 << 20;

    @BeforeAll
    static void theEngineIsPodman() throws Exception {
        try (DockerClients clients = TestDocker.clients()) {
            assertThat(clients.identity().podman())
                    .as(
                            "the engine at %s is %s, not Podman: run scripts/podman.sh and point DOCKER_HOST and"
                                    + " SLUICE_DOCKER_HOST at the socket it prints (scripts/test.sh --podman does both)",
                            clients.host(), clients.identity().describe())
                    .isTrue();
        }
    }

    @Test
    void aWorkerAskingPodmanForWhatItCannotDoRefusesToStartNamingEachSetting() {
        Map<String, String> env = WorkerProcess.environment(
                "podman-refused",
                Map.of(
                        "SLUICE_CONTAINER_RUNTIMES", "runsc",
                        "SLUICE_CONTAINER_LOG_DRIVER", "local",
                        "SLUICE_CONTAINER_NONE_NETWORK", "bare"));

        String log = WorkerProcess.refusal(env);

        assertThat(log)
                .contains("refusing to start: the engine is Podman Engine 4.")
                .contains("sluice.container.runtimes lists runsc, but Podman's Docker-compatible API ignores a"
                        + " container's runtime")
                .contains("sluice.container.log-driver is local, which Podman does not offer")
                .contains("sluice.container.none-network is bare")
                .contains("docs/operations.md, \"Engines\"");
    }

    @Test
    void sixtyFourMebibytesAreCapturedByteExactUnderTheWitnessInAHardenedContainer() throws Exception {
        byte[] expected = hundredByteLines(SIXTY_FOUR_MEBIBYTES);
        Map<String, String> env = WorkerProcess.environment("podman-capture", Map.of());
        env.put("SLUICE_CONTAINER_RUNTIMES", "");
        try (WorkerProcess worker = WorkerProcess.startAsShipped(env)) {
            String id = worker.submit(WorkerClient.script(
                    "id -u >&2; grep '^CapBnd' /proc/self/status >&2; awk 'BEGIN { for (i = 1; i <= 680000; i++)"
                            + " printf \"%099d\\n\", i }' | head -c " + SIXTY_FOUR_MEBIBYTES));
            JsonNode r = worker.awaitTerminal(id, Duration.ofMinutes(3));

            assertThat(r.path("status").asText()).as("%s", r).isEqualTo("succeeded");
            JsonNode result = r.path("result");
            assertThat(result.path("stdoutWitness").path("state").asText()).isEqualTo("complete");
            assertThat(result.path("stdoutWitness").path("writtenBytes").asLong())
                    .isEqualTo(SIXTY_FOUR_MEBIBYTES);
            assertThat(result.path("stdoutWitness").path("lostBytes").asLong()).isZero();
            assertThat(result.path("stdoutDigest").path("bytes").asLong()).isEqualTo(SIXTY_FOUR_MEBIBYTES);
            assertThat(result.path("stdoutDigest").path("sha256").asText()).isEqualTo(Digests.sha256(expected));
            assertThat(result.path("stderr").asText()).isEqualTo("65534\nCapBnd:\t0000000000000000\n");

            try (DockerClients clients = TestDocker.clients()) {
                List<Container> found = clients.control()
                        .listContainersCmd()
                        .withShowAll(true)
                        .withLabelFilter(Map.of(Labels.DISPATCH_ID, id))
                        .exec();
                assertThat(found).hasSize(1);
                InspectContainerResponse c = clients.control()
                        .inspectContainerCmd(found.get(0).getId())
                        .exec();
                assertThat(c.getConfig().getUser()).isEqualTo("65534:65534");
                var host = c.getHostConfig();
                assertThat(host.getNetworkMode()).isEqualTo("none");
                assertThat(host.getReadonlyRootfs()).isTrue();
                // Podman shows the capabilities that ALL took away; none is left (CapBnd above).
                assertThat(host.getCapDrop()).extracting(Enum::name).contains("CHOWN", "NET_RAW", "SETUID");
                assertThat(host.getCapAdd()).isNullOrEmpty();
                assertThat(host.getSecurityOpts()).contains("no-new-privileges");
                assertThat(host.getPidsLimit()).isEqualTo(256L);
                assertThat(c.getConfig().getEntrypoint()[0]).isEqualTo("/sluice/witness");
            }

            // The whole stream, read back from Podman's log through the worker in ranges, is the bytes written.
            ByteArrayOutputStream read = new ByteArrayOutputStream(SIXTY_FOUR_MEBIBYTES);
            boolean end = false;
            while (!end) {
                // Podman serves its log at some 5 to 10 MB/s, and a range is read from the log's start.
                HttpResponse<String> range = worker.get(
                        "/v1/dispatches/" + id + "/logs/stdout?offset=" + read.size() + "&limit=" + (16 << 20),
                        Duration.ofMinutes(2));
                assertThat(range.statusCode()).as(range.body()).isEqualTo(200);
                byte[] bytes = range.body().getBytes(StandardCharsets.ISO_8859_1);
                assertThat(bytes.length > 0
                                || range.headers()
                                        .firstValue("Sluice-Log-End")
                                        .orElse("")
                                        .equals("true"))
                        .as("a range at %d", read.size())
                        .isTrue();
                read.writeBytes(bytes);
                end = range.headers().firstValue("Sluice-Log-End").orElse("").equals("true");
            }
            assertThat(read.size()).isEqualTo(SIXTY_FOUR_MEBIBYTES);
            assertThat(Digests.sha256(read.toByteArray())).isEqualTo(Digests.sha256(expected));
        }
    }

    /** What the agent's awk prints, cut at {@code size}: distinct lines of 100 bytes, so a cut in the wrong place shows. */
    private static byte[] hundredByteLines(int size) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(size + 100);
        for (int i = 1; out.size() < size; i++) {
            out.writeBytes(String.format("%099d\n", i).getBytes(StandardCharsets.US_ASCII));
        }
        byte[] all = out.toByteArray();
        return java.util.Arrays.copyOf(all, size);
    }
}
