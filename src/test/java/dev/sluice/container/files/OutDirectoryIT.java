package dev.sluice.container.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.command.InspectContainerResponse;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.ManagedContainer;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.engine.OutFile;
import dev.sluice.container.sandbox.ContainerSpec;
import dev.sluice.testsupport.TestDocker;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;

/**
 * The out-directory on and off against the real engine (ADR 0022, 0041): the
 * same agent writes its report and an artifact; with the out-directory the
 * worker reads both back, without it the container has no volume, the agent's
 * write fails on the read-only root and the worker asks the engine nothing.
 */
class OutDirectoryIT {

    private static final String STDOUT_REPORT =
            "{\"sluice.report\": {\"summary\": \"from stdout\", \"keyFindings\": [], \"confidence\": \"low\"}}";

    /** Exits 0 when it could write both files, 3 when it could not. */
    private static final String AGENT = "mkdir -p /sluice/out/artifacts && echo '{}' > /sluice/out/report.json"
            + " && echo kept > /sluice/out/artifacts/a.txt || exit 3";

    private static DockerClients clients;

    @BeforeAll
    static void connect() {
        clients = TestDocker.clients();
    }

    @AfterAll
    static void close() throws Exception {
        clients.close();
    }

    @Test
    void withTheOutDirectoryTheAgentsFilesAreReadBack() {
        ContainerRuntime runtime = new ContainerRuntime(clients, TestDocker.containerConfig());
        String id = runtime.create(spec());
        try {
            assertThat(volumes(id)).containsExactly("/sluice");
            assertThat(run(runtime, id)).isZero();

            assertThat(runtime.readOutFile(id, "report.json", 1024).state()).isEqualTo(OutFile.State.FOUND);
            assertThat(walk(runtime, id)).containsExactly("a.txt");
        } finally {
            runtime.remove(id);
        }
    }

    @Test
    void withoutItTheContainerHasNoVolumeAndNothingIsRead() {
        ContainerRuntime runtime = new ContainerRuntime(clients, TestDocker.containerConfigWithoutOutDir());
        String id = runtime.create(spec());
        try {
            assertThat(volumes(id)).isEmpty();
            assertThat(run(runtime, id)).isEqualTo(3);

            assertThat(runtime.readOutFile(id, "report.json", 1024).state()).isEqualTo(OutFile.State.ABSENT);
            assertThat(runtime.walkOutDirectory(id, "artifacts", 1 << 20, new Names())
                            .complete())
                    .isTrue();
        } finally {
            runtime.remove(id);
        }
    }

    /** Off, the out-directory's steps make no engine call: with no engine there they still answer as empty. */
    @Test
    void withoutItNoCallIsMade() {
        try (DockerClients absent = DockerClients.connect(new TestDocker.Docker(
                Optional.of("unix:///nonexistent/sluice-test.sock"),
                Duration.ofMillis(500),
                Duration.ofSeconds(1),
                Duration.ofMillis(300),
                0))) {
            ContainerRuntime off = new ContainerRuntime(absent, TestDocker.containerConfigWithoutOutDir());
            ContainerRuntime on = new ContainerRuntime(absent, TestDocker.containerConfig());

            off.outDirectory().prepare("no-such-container", Optional.empty(), WitnessKey.random());
            assertThat(off.readOutFile("no-such-container", "report.json", 1024).state())
                    .isEqualTo(OutFile.State.ABSENT);
            assertThat(off.walkOutDirectory("no-such-container", "artifacts", 1024, new Names())
                            .complete())
                    .isTrue();
            // With the out-directory on, the same read asks the engine, and fails.
            assertThat(on.readOutFile("no-such-container", "report.json", 1024).state())
                    .isEqualTo(OutFile.State.UNREADABLE);
        }
    }

    /** The setting's name, as an operator gives it, reaches the containers; reports still come from stdout. */
    @Test
    void aWorkerWithoutItTakesTheReportFromStdoutAndKeepsNoArtifacts() throws Exception {
        String workerId = "no-out-dir-" + System.nanoTime();
        Map<String, String> env = WorkerProcess.baseEnvironment(WorkerProcess.freshDataDir("no-out-dir"), workerId);
        env.put("SLUICE_CONTAINER_OUT_DIR_ENABLED", "false");
        try (WorkerProcess worker = WorkerProcess.start(env)) {
            String id =
                    worker.submit(WorkerClient.script(AGENT.replace("|| exit 3", "|| echo '" + STDOUT_REPORT + "'")));
            JsonNode record = worker.awaitTerminal(id, Duration.ofSeconds(60));

            assertThat(record.path("status").asText()).isEqualTo("succeeded");
            assertThat(record.at("/result/reportStatus").asText()).isEqualTo("present");
            assertThat(record.at("/result/report/summary").asText()).isEqualTo("from stdout");
            assertThat(record.at("/result/artifacts")).isEmpty();
            // No out-directory, no witness (ADR 0045): the result says its streams were not witnessed.
            assertThat(record.at("/result/stdoutWitness/state").asText()).isEqualTo("unwitnessed");
            assertThat(record.at("/result/stdoutWitness/reason").asText()).isEqualTo("off");
            assertThat(record.at("/result/stdoutWitness/detail").asText()).isEqualTo("the out-directory is turned off");
            assertThat(record.at("/result/stdoutDigest/covers").asText()).isEqualTo("stream");
            ContainerRuntime engine = new ContainerRuntime(clients, TestDocker.containerConfig());
            List<ManagedContainer> containers = engine.managedBy(workerId);
            assertThat(containers).hasSize(1);
            assertThat(volumes(containers.get(0).id())).isEmpty();
        }
    }

    private static ContainerSpec spec() {
        return TestDocker.shellSpec(AGENT, "it-out-dir");
    }

    private static List<String> volumes(String id) {
        InspectContainerResponse inspected =
                clients.control().inspectContainerCmd(id).exec();
        return inspected.getMounts().stream()
                .filter(m -> m.getName() != null && !m.getName().isEmpty())
                .map(m -> m.getDestination().getPath())
                .toList();
    }

    private static int run(ContainerRuntime runtime, String id) {
        runtime.start(id);
        return runtime.awaitExit(id);
    }

    private static List<String> walk(ContainerRuntime runtime, String id) {
        Names names = new Names();
        assertThat(runtime.walkOutDirectory(id, "artifacts", 1 << 20, names).complete())
                .isTrue();
        return names.files;
    }

    private static final class Names implements OutArchive.Visitor {
        final List<String> files = new ArrayList<>();

        @Override
        public void file(String name, long size, InputStream data) {
            files.add(name);
        }

        @Override
        public void refused(String name, OutArchive.Refusal refusal) {
            files.add("refused " + name);
        }
    }
}
