package dev.sluice.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Event;
import com.github.dockerjava.api.model.EventType;
import com.github.dockerjava.api.model.Frame;

import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.engine.EngineVersions;
import dev.sluice.container.sandbox.ContainerConfig;
import dev.sluice.container.sandbox.HostsFile;
import dev.sluice.container.sandbox.Labels;
import dev.sluice.container.sandbox.NoneNetworkChoice;
import dev.sluice.testsupport.EngineEvents;
import dev.sluice.testsupport.EngineWide;
import dev.sluice.testsupport.TestDocker;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;

/**
 * A container of {@code network: none}, isolated either way (ADR 0042), as its
 * hardened user sees it: a network namespace of its own with loopback alone,
 * which answers on 127.0.0.1 and as {@code localhost}. Docker's {@code none}
 * network writes /etc/hosts from a sandbox of the engine's network
 * controller; the bare namespace has no such sandbox and gets the worker's
 * file from the volume {@code sluice-etc-hosts}, which is written again when
 * it has gone (ADR 0043). Left to itself, the worker chooses between them by
 * the engine's version (ADR 0047); {@code HostileImageIT} has images that try
 * to subvert the file.
 */
@EngineWide
class NoneNetworkIT {

    private static final String PROBE = "echo \"interfaces=$(ls /sys/class/net | tr '\\n' ' ')\";"
            + " echo \"netns=$(readlink /proc/self/ns/net)\";"
            + " (nc -l -p 8080 > /tmp/got &) ; " + connect("127.0.0.1", 8080) + " sleep 0.2;"
            + " echo \"loopback=$(cat /tmp/got)\";"
            + " (nc -l -p 8081 > /tmp/named &) ; " + connect("localhost", 8081) + " sleep 0.2;"
            + " echo \"localhost=$(cat /tmp/named)\";"
            + " echo \"hosts=$(grep -c localhost /etc/hosts)\"";

    /**
     * Sends {@code hi} to a listener started just before, trying again for up
     * to five seconds: on a loaded machine the listener may not be up after a
     * fixed pause, and a refused connection does not use it up.
     */
    private static String connect(String host, int port) {
        return "for i in " + "x ".repeat(25) + "; do echo hi | nc -w 1 " + host + " " + port
                + " && break; sleep 0.2; done;";
    }

    private static final String ADVICE = "can deadlock its network controller";

    private static DockerClients clients;

    @BeforeAll
    static void connect() {
        clients = TestDocker.clients();
    }

    @AfterAll
    static void close() {
        clients.close();
    }

    @Test
    void dockersNoneNetworkHasLoopbackAndHostsFile() throws Exception {
        Probe probe = probe(ContainerConfig.NoneNetwork.DOCKER);

        assertThat(probe.inspected.getNetworkSettings().getNetworks()).containsOnlyKeys("none");
        assertIsolatedWithLoopback(probe.output);
        assertThat(probe.inspected.getMounts())
                .noneMatch(m -> "/etc/hosts".equals(m.getDestination().getPath()));
    }

    @Test
    void aBareNamespaceHasLoopbackAndNoSandbox() throws Exception {
        Probe probe = probe(ContainerConfig.NoneNetwork.BARE);

        assertThat(probe.inspected.getConfig().getNetworkDisabled()).isTrue();
        assertThat(probe.inspected.getNetworkSettings().getNetworks()).isEmpty();
        assertThat(probe.inspected.getNetworkSettings().getSandboxKey()).isNullOrEmpty();
        assertIsolatedWithLoopback(probe.output);
        assertThat(probe.inspected.getMounts()).anySatisfy(m -> {
            assertThat(m.getDestination().getPath()).isEqualTo("/etc/hosts");
            assertThat(m.getSource()).endsWith("/" + HostsFile.VOLUME + "/_data/hosts");
            assertThat(m.getRW()).isFalse();
        });
    }

    /**
     * A pruned volume is noticed by the next create, written again once (one
     * helper) for all the creates that found it missing together, and no
     * helper stays.
     */
    @Test
    void aBareNamespacesHostsFileComesBackWhenItsVolumeHasGone() throws Exception {
        ContainerRuntime runtime =
                new ContainerRuntime(clients, TestDocker.containerConfig(ContainerConfig.NoneNetwork.BARE));
        runtime.remove(runtime.create(TestDocker.shellSpec("true", "it-hosts-first")));
        removeHostsVolume();

        long helpers = eventsDuring(EventType.CONTAINER, NoneNetworkIT::isHostsHelper, () -> {
            ExecutorService pool = Executors.newFixedThreadPool(6);
            try {
                List<Future<String>> created = new ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    String dispatchId = "it-hosts-" + i;
                    created.add(pool.submit(() -> runtime.create(TestDocker.shellSpec("true", dispatchId))));
                }
                for (Future<String> id : created) {
                    runtime.remove(id.get(60, TimeUnit.SECONDS));
                }
            } catch (Exception e) {
                throw new AssertionError(e);
            } finally {
                pool.shutdownNow();
            }
        });

        // Six creates that found it missing share one write. Under heavy load a second one has been
        // seen (a check reading the file while the first write was still under way rewrote it): safe,
        // since every start is checked, but never one per create.
        assertThat(helpers).isBetween(1L, 2L);
        assertThat(probe(ContainerConfig.NoneNetwork.BARE).output).contains("localhost=hi");
        assertThat(clients.control().listContainersCmd().withShowAll(true).exec())
                .noneMatch(
                        c -> c.getLabels().getOrDefault(Labels.DISPATCH_ID, "").startsWith("etc-hosts-"));
    }

    /** A fresh worker finds the volume gone as well (its first create does), and writes it. */
    @Test
    void aFreshWorkersFirstBareCreateWritesAMissingHostsFile() throws Exception {
        removeHostsVolume();

        Probe probe = probe(ContainerConfig.NoneNetwork.BARE);

        assertThat(probe.output).contains("localhost=hi").contains("hosts=2");
    }

    /** The warm-up looks the volume up, so a worker's first bare create need not ask the engine for it. */
    @Test
    void afterTheWarmUpTheFirstBareCreateDoesNotAskForTheVolume() throws Exception {
        ContainerConfig bare = TestDocker.containerConfig(ContainerConfig.NoneNetwork.BARE);
        probe(ContainerConfig.NoneNetwork.BARE); // the volume and its file are there
        ContainerRuntime cold = new ContainerRuntime(clients, bare);
        ContainerRuntime warm = new ContainerRuntime(clients, bare);
        new EngineWarmUp(warm, clients, TestDocker.dockerConfig().callTimeout()).run("warm-up-" + UUID.randomUUID());

        assertThat(eventsDuring(
                        EventType.VOLUME,
                        NoneNetworkIT::isHostsVolume,
                        () -> cold.remove(cold.create(TestDocker.shellSpec("true", "it-cold")))))
                .isEqualTo(1);
        assertThat(eventsDuring(
                        EventType.VOLUME,
                        NoneNetworkIT::isHostsVolume,
                        () -> warm.remove(warm.create(TestDocker.shellSpec("true", "it-warm")))))
                .isZero();
    }

    private static boolean isHostsVolume(Event event) {
        return HostsFile.VOLUME.equals(event.getActor().getId());
    }

    private static boolean isHostsHelper(Event event) {
        Map<String, String> attributes = event.getActor().getAttributes();
        return attributes != null
                && attributes.getOrDefault(Labels.DISPATCH_ID, "").startsWith("etc-hosts-");
    }

    /** The engine's create events of {@code type} that {@code counted} picks, while {@code action} ran. */
    private static long eventsDuring(EventType type, Predicate<Event> counted, Runnable action)
            throws InterruptedException {
        Instant since = Instant.now();
        action.run();
        return EngineEvents.since(clients, type, "create", since).stream()
                .filter(counted)
                .count();
    }

    private static void removeHostsVolume() {
        try {
            clients.control().removeVolumeCmd(HostsFile.VOLUME).exec();
        } catch (com.github.dockerjava.api.exception.NotFoundException e) {
            // never made, or already gone
        }
    }

    /**
     * A worker with the default settings chooses by the engine's version: a
     * bare namespace on an engine with the network controller's deadlock (this
     * machine's 20.10.24), Docker's none network on any other; `localhost`
     * resolves either way, and the log says the choice and why, warning of
     * nothing.
     */
    @Test
    void aWorkerWithTheDefaultsChoosesByTheEngineVersion() throws Exception {
        String version = clients.control().versionCmd().exec().getVersion();
        boolean bare = EngineVersions.hasNetworkControllerDeadlock(version);
        String workerId = "auto-network-" + System.nanoTime();
        Map<String, String> env = WorkerProcess.baseEnvironment(WorkerProcess.freshDataDir("auto-network"), workerId);
        try (WorkerProcess worker = WorkerProcess.start(env)) {
            String id = worker.submit(WorkerClient.script("cat /proc/net/dev; grep -c localhost /etc/hosts"));
            JsonNode record = worker.awaitTerminal(id, Duration.ofSeconds(60));

            assertThat(record.path("status").asText()).isEqualTo("succeeded");
            assertThat(record.at("/result/stdout").asText())
                    .contains("lo:")
                    .doesNotContain("eth")
                    .endsWith("2\n");
            List<ManagedContainer> containers =
                    new ContainerRuntime(clients, TestDocker.containerConfig()).managedBy(workerId);
            assertThat(containers).hasSize(1);
            assertThat(Boolean.TRUE.equals(clients.control()
                            .inspectContainerCmd(containers.get(0).id())
                            .exec()
                            .getConfig()
                            .getNetworkDisabled()))
                    .as("engine %s", version)
                    .isEqualTo(bare);
            assertThat(logAfterWarmUp(worker))
                    .contains(NoneNetworkChoice.choose(ContainerConfig.NoneNetwork.AUTO, version)
                            .describe())
                    .doesNotContain(ADVICE);
        }
    }

    /** A worker set to Docker's `none` network says at start when its engine has the deadlock, and only then. */
    @Test
    void aWorkerOnDockersNoneNetworkWarnsOfAnEngineWithTheDeadlock() {
        Map<String, String> env =
                WorkerProcess.baseEnvironment(WorkerProcess.freshDataDir("none-network"), "none-network");
        env.put("SLUICE_CONTAINER_NONE_NETWORK", "docker");
        try (WorkerProcess worker = WorkerProcess.start(env)) {
            String version = clients.control().versionCmd().exec().getVersion();

            assertThat(logAfterWarmUp(worker).contains(ADVICE))
                    .as("engine %s", version)
                    .isEqualTo(EngineVersions.hasNetworkControllerDeadlock(version));
        }
    }

    /** The log once the worker has said the engine's version, which it does once, in one line with any advice. */
    private static String logAfterWarmUp(WorkerProcess worker) {
        return await().atMost(Duration.ofSeconds(30))
                .until(worker::logText, text -> text.contains("warm-up took") && text.contains("Docker engine "));
    }

    private static void assertIsolatedWithLoopback(String output) throws Exception {
        String hostNamespace =
                Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString();
        assertThat(output)
                .contains("interfaces=lo \n")
                .contains("netns=net:[")
                .doesNotContain("netns=" + hostNamespace)
                .contains("loopback=hi")
                .contains("localhost=hi")
                .contains("hosts=2");
    }

    private record Probe(InspectContainerResponse inspected, String output) {}

    private static Probe probe(ContainerConfig.NoneNetwork mode) throws Exception {
        ContainerRuntime runtime = new ContainerRuntime(clients, TestDocker.containerConfig(mode));
        String id = runtime.create(TestDocker.shellSpec(PROBE, "it-none-network"));
        try {
            runtime.start(id);
            assertThat(runtime.awaitExit(id)).isZero();
            return new Probe(clients.control().inspectContainerCmd(id).exec(), log(id));
        } finally {
            runtime.remove(id);
        }
    }

    private static String log(String id) throws InterruptedException {
        StringBuilder text = new StringBuilder();
        ResultCallback.Adapter<Frame> frames = clients.control()
                .logContainerCmd(id)
                .withStdOut(true)
                .withStdErr(true)
                .exec(new ResultCallback.Adapter<>() {
                    @Override
                    public void onNext(Frame frame) {
                        text.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
                    }
                });
        assertThat(frames.awaitCompletion(30, TimeUnit.SECONDS)).isTrue();
        return text.toString();
    }
}
