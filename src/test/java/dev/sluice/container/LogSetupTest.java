package dev.sluice.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.sluice.container.engine.ContainerException;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.testsupport.ScriptedEngine;
import dev.sluice.testsupport.ScriptedEngine.Reply;
import dev.sluice.testsupport.ScriptedEngine.Transport;
import dev.sluice.testsupport.TestDocker;

/**
 * A container's log as the engine describes it, read from engines of our own
 * that answer as Docker 20.10 and Podman's compatible API do (ADR 0049), and
 * what the retention makes of each.
 */
class LogSetupTest {

    /** Docker's /version, cut to what is read: the engine lists itself first. */
    private static final String DOCKER_VERSION = "{\"Version\":\"20.10.24+dfsg1\",\"ApiVersion\":\"1.41\","
            + "\"Components\":[{\"Name\":\"Engine\",\"Version\":\"20.10.24+dfsg1\"},"
            + "{\"Name\":\"containerd\",\"Version\":\"1.6.20~ds1\"},{\"Name\":\"runc\",\"Version\":\"1.1.5+ds1\"}]}";

    /** Podman 4's compatible /version. */
    private static final String PODMAN_VERSION = "{\"Version\":\"4.3.1\",\"ApiVersion\":\"1.41\","
            + "\"Components\":[{\"Name\":\"Podman Engine\",\"Version\":\"4.3.1\"},"
            + "{\"Name\":\"Conmon\",\"Version\":\"conmon version 2.1.6\"}]}";

    private final List<String> requests = new CopyOnWriteArrayList<>();
    private ScriptedEngine engine;
    private DockerClients clients;

    @AfterEach
    void close() throws Exception {
        if (clients != null) {
            clients.close();
        }
        if (engine != null) {
            engine.close();
        }
    }

    /** The container's inspection as the engine gives it, its log config as given. */
    private static String inspection(String logConfig) {
        return "{\"Id\":\"c1\",\"State\":{\"Status\":\"exited\"},\"HostConfig\":{\"LogConfig\":" + logConfig + "}}";
    }

    private ContainerLogs engine(String version, String logConfig) {
        engine = ScriptedEngine.start(Transport.UNIX, request -> {
            requests.add(request);
            if (request.endsWith("/version")) {
                return Reply.answer(200, version);
            }
            if (request.contains("/containers/c1/json")) {
                return Reply.answer(200, inspection(logConfig));
            }
            return Reply.answer(404, "{\"message\":\"No such container: c2\"}");
        });
        clients = DockerClients.connect(new TestDocker.Docker(
                Optional.of(engine.host().toString()),
                Duration.ofSeconds(2),
                Duration.ofSeconds(5),
                Duration.ofSeconds(1),
                0));
        return new ContainerLogs(clients);
    }

    private static LogRetention retention() {
        return new LogRetention(TestDocker.containerConfig("json-file", 32, 4));
    }

    @Test
    void dockerWithTheWorkersOptionsIsTheLogMeasured() {
        ContainerLogs logs = engine(
                DOCKER_VERSION,
                "{\"Type\":\"json-file\",\"Config\":{\"compress\":\"true\",\"max-file\":\"4\",\"max-size\":\"33554432\"}}");
        LogSetup setup = logs.setup("c1");
        assertThat(setup).isEqualTo(new LogSetup("Engine", "json-file", Set.of("compress", "max-file", "max-size")));
        LogRetention retention = retention();
        assertThat(retention.forLog(setup)).isSameAs(retention);
        // 3 files of 32 MiB kept for sure, at 72 bytes of record per byte at worst.
        assertThat(retention.forLog(setup).possiblyRotated((3L * 32 << 20) / 72))
                .isFalse();
    }

    @Test
    void theEnginesNameIsAskedOnce() {
        ContainerLogs logs = engine(DOCKER_VERSION, "{\"Type\":\"json-file\",\"Config\":{\"max-size\":\"1m\"}}");
        logs.setup("c1");
        logs.setup("c1");
        assertThat(requests.stream().filter(r -> r.endsWith("/version"))).hasSize(1);
        assertThat(requests.stream().filter(r -> r.contains("/containers/c1/json")))
                .hasSize(2);
    }

    @Test
    void aDaemonsLogOptsShowInTheInspectionAndAddAttributes() {
        // dockerd merges its log-opts into each container's config: labels and env put attrs in every record.
        ContainerLogs logs = engine(
                DOCKER_VERSION,
                "{\"Type\":\"json-file\",\"Config\":{\"env\":\"FOO\",\"labels\":\"team\",\"max-file\":\"4\","
                        + "\"max-size\":\"33554432\"}}");
        LogSetup setup = logs.setup("c1");
        assertThat(setup.options()).containsExactlyInAnyOrder("env", "labels", "max-file", "max-size");
        assertUntold(retention().forLog(setup));
    }

    @Test
    void podmanSaysJsonFileButIsAnotherEngine() {
        // Podman takes json-file as a name for its k8s-file records, and says json-file when inspected.
        ContainerLogs logs = engine(PODMAN_VERSION, "{\"Type\":\"json-file\",\"Config\":{\"max-size\":\"33554432\"}}");
        LogSetup setup = logs.setup("c1");
        assertThat(setup).isEqualTo(new LogSetup("Podman Engine", "json-file", Set.of("max-size")));
        assertUntold(retention().forLog(setup));
    }

    @Test
    void aDriverTheClientDoesNotKnowIsNoDriver() {
        ContainerLogs logs = engine(DOCKER_VERSION, "{\"Type\":\"k8s-file\",\"Config\":{}}");
        LogSetup setup = logs.setup("c1");
        assertThat(setup).isEqualTo(new LogSetup("Engine", "", Set.of()));
        assertUntold(retention().forLog(setup));
    }

    @Test
    void aContainerThatIsGoneHasNoSetup() {
        ContainerLogs logs = engine(DOCKER_VERSION, "{\"Type\":\"json-file\"}");
        assertThatThrownBy(() -> logs.setup("c2"))
                .isInstanceOfSatisfying(
                        ContainerException.class,
                        e -> assertThat(e.reason()).isEqualTo(ContainerException.Reason.NOT_FOUND));
    }

    /** The answers of a driver nobody measured: rotation is never ruled out, nothing is proven whole. */
    static void assertUntold(LogRetention told) {
        assertThat(told.possiblyRotated(0)).isTrue();
        assertThat(told.recordsFit(0)).isFalse();
        assertThat(told.provenWholeBytes()).isEqualTo(-1);
    }
}
