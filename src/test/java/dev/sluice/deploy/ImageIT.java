package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.Program;
import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.Signatures;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;

/**
 * The JVM image (Dockerfile.jvm) as a user runs it: built by
 * scripts/jvm-image.sh on a base made from Debian's packages, started as a
 * container that is not root, on a read-only root filesystem, with the
 * engine's socket mounted and its group added. Probed from outside, it runs a
 * dispatch on the engine beside it and delivers the signed result to a real
 * receiver; stopped with SIGTERM, it drains that dispatch before it exits.
 */
class ImageIT {

    private static final String IMAGE = "sluice:jvm-test";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String WORKER_ID =
            "image-it-" + ProcessHandle.current().pid();

    private static final Receiver receiver = Receiver.on("127.0.0.1");
    private static String container;

    @BeforeAll
    static void buildImage() {
        // The base is made once per machine (about a minute and a half); later runs rebuild only the worker's layers.
        Program.Result build = Program.run(
                "", Duration.ofMinutes(15), "env", "SLUICE_IMAGE=" + IMAGE, "scripts/jvm-image.sh", "--no-package");
        assertThat(build.exitCode()).as(build.output()).isZero();
    }

    @AfterAll
    static void cleanUp() {
        receiver.close();
        if (container != null) {
            docker("rm", "-f", container);
        }
        String dispatched = docker("ps", "-aq", "--filter", "label=dev.sluice.worker-id=" + WORKER_ID)
                .stdout()
                .strip();
        if (!dispatched.isEmpty()) {
            List<String> rm = new ArrayList<>(List.of("rm", "-f"));
            rm.addAll(dispatched.lines().toList());
            docker(rm.toArray(String[]::new));
        }
    }

    @Test
    void theImageRunsADispatchDeliversItsSignedResultAndDrainsOnSigterm() throws Exception {
        assertThat(docker("image", "inspect", "-f", "{{.Config.User}}", IMAGE)
                        .stdout()
                        .strip())
                .as("the image's user")
                .isEqualTo("185");

        int port = WorkerProcess.freePort();
        container = start(port);
        WorkerClient worker = new WorkerClient("http://127.0.0.1:" + port);

        awaitProbesUp(worker);

        String id = "image-" + System.nanoTime();
        Map<String, Object> request = new HashMap<>(WorkerClient.script("sleep 5; echo finished in the drain"));
        request.put("id", id);
        request.put("callbackUrl", receiver.url("/results"));
        worker.submit(request);
        worker.awaitStatus(id, "running");

        docker("kill", "--signal", "TERM", container);
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> worker.status("/q/health/ready") == 503);

        Program.Result exit = Program.run("", Duration.ofSeconds(60), "docker", "wait", container);
        String logs = docker("logs", container).output();
        assertThat(exit.stdout().strip())
                .as("exit status after SIGTERM (128 + 15)\n" + logs)
                .isEqualTo("143");
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

    /**
     * Started as the Kubernetes manifests start it: not root, read-only root,
     * no capabilities, a volume for the store and one for /tmp. The worker and
     * this test share the host's network: the engine here has no bridge.
     * -Xshare:on turns an archive the runtime cannot map into a failed start
     * instead of a silently slower one.
     */
    private static String start(int port) throws IOException {
        Path socket = engineSocket();
        int socketGroup = (Integer) Files.getAttribute(socket, "unix:gid");
        return docker(
                        "run",
                        "-d",
                        "--name",
                        WORKER_ID,
                        "--network",
                        "host",
                        "--read-only",
                        "--tmpfs",
                        "/tmp",
                        "--tmpfs",
                        "/deployments/data:uid=185,gid=185,mode=0700",
                        "--cap-drop",
                        "ALL",
                        "--security-opt",
                        "no-new-privileges",
                        "-v",
                        socket + ":/var/run/docker.sock",
                        "--group-add",
                        Integer.toString(socketGroup),
                        "-e",
                        "QUARKUS_HTTP_PORT=" + port,
                        "-e",
                        "SLUICE_WORKER_ID=" + WORKER_ID,
                        "-e",
                        "SLUICE_CALLBACK_SIGNING_SECRETS=" + String.join(",", Signatures.TEST_SECRETS),
                        "-e",
                        "SLUICE_CALLBACK_ALLOWED_HOSTS=127.0.0.1",
                        "-e",
                        "SLUICE_DISPATCH_DEFAULT_MEMORY=128M",
                        "-e",
                        "JAVA_OPTS=-Xshare:on",
                        IMAGE)
                .stdout()
                .strip();
    }

    private static void awaitProbesUp(WorkerClient worker) throws IOException {
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(200))
                .ignoreExceptions()
                .until(() -> worker.status("/q/health/started") == 200);
        JsonNode started = JSON.readTree(worker.get("/q/health/started").body());
        assertThat(started.path("status").asText()).isEqualTo("UP");
        assertThat(worker.status("/q/health/live")).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> worker.status("/q/health/ready") == 200);
        JsonNode ready = JSON.readTree(worker.get("/q/health/ready").body());
        assertThat(ready.path("checks").findValuesAsText("name")).contains("docker", "store", "accepting");
        assertThat(ready.path("checks").findValuesAsText("status")).containsOnly("UP");
    }

    /** The engine this test uses: DOCKER_HOST when it names a Unix socket, else the default one. */
    private static Path engineSocket() {
        String host = System.getenv().getOrDefault("DOCKER_HOST", "unix:///var/run/docker.sock");
        assertThat(host).as("the image test mounts the engine's Unix socket").startsWith("unix://");
        return Path.of(URI.create(host).getPath());
    }

    private static Program.Result docker(String... args) {
        List<String> command = new ArrayList<>(List.of("docker"));
        command.addAll(List.of(args));
        Program.Result result = Program.run("", Duration.ofSeconds(60), command.toArray(String[]::new));
        assertThat(result.exitCode())
                .as(String.join(" ", command) + "\n" + result.output())
                .isZero();
        return result;
    }
}
