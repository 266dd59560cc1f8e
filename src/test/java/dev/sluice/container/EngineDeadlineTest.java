package dev.sluice.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.sluice.container.engine.ContainerException;
import dev.sluice.container.engine.ContainerPaths;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.engine.DockerConfig;
import dev.sluice.container.engine.EngineCall;
import dev.sluice.container.sandbox.ContainerConfig;
import dev.sluice.container.sandbox.ContainerSpec;
import dev.sluice.container.sandbox.HostsFile;
import dev.sluice.output.SecretMasker;
import dev.sluice.testsupport.ScriptedEngine;
import dev.sluice.testsupport.ScriptedEngine.Fault;
import dev.sluice.testsupport.ScriptedEngine.Transport;
import dev.sluice.testsupport.TestDocker;

/**
 * Every engine call ends within its deadline (ADR 0016), on a Unix socket and
 * on TCP, against engines of our own that accept and never answer, answer half
 * a response head, or answer the head and half the body: the call fails as
 * {@code ENGINE_UNAVAILABLE} saying the engine did not answer in time, its
 * thread is free again, and the engine sees the connection closed.
 */
class EngineDeadlineTest {

    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(1);
    /**
     * A functional bound, not a benchmark: far below anything but the deadline
     * could end a call (a call without one never ends), yet loose enough for a
     * machine whose cores are all busy. The failure's message names the 1 s
     * deadline as the cause.
     */
    private static final Duration WITHIN = CALL_TIMEOUT.plusSeconds(14);

    private static final String IMAGE_ANSWER = "{\"Id\":\"sha256:1\",\"Config\":{\"User\":\"\"}}";

    private final ExecutorService callers = Executors.newCachedThreadPool();
    private final List<EngineCall> observed = new CopyOnWriteArrayList<>();
    private ScriptedEngine engine;
    private DockerClients clients;

    @AfterEach
    void close() throws Exception {
        callers.shutdownNow();
        if (clients != null) {
            clients.close();
        }
        if (engine != null) {
            engine.close();
        }
    }

    static Stream<Arguments> engines() {
        return Stream.of(Transport.values())
                .flatMap(t -> Stream.of(Fault.values()).map(f -> Arguments.of(t, f)));
    }

    @ParameterizedTest(name = "{0}, engine {1}")
    @MethodSource("engines")
    void everyCallEndsWithinTheDeadlineAndClosesItsConnection(Transport transport, Fault fault) throws Exception {
        // The image "good" is described, so a create gets as far as its own call; anything else meets the fault.
        engine = ScriptedEngine.start(
                transport,
                request -> request.contains("/images/good") ? ScriptedEngine.Reply.answer(200, IMAGE_ANSWER) : fault);
        clients = DockerClients.connect(config(engine), observed::add);
        // On Docker's none network, a create's own call comes right after the image's inspection.
        ContainerRuntime runtime =
                new ContainerRuntime(clients, TestDocker.containerConfig(ContainerConfig.NoneNetwork.DOCKER));
        // In a bare namespace the hosts file's volume is asked for first (ADR 0043).
        ContainerRuntime bare = new ContainerRuntime(clients, TestDocker.containerConfig());
        // Left to choose, it asks the engine's version first (ADR 0047).
        ContainerRuntime auto =
                new ContainerRuntime(clients, TestDocker.containerConfig(ContainerConfig.NoneNetwork.AUTO));
        ContainerLogs logs = new ContainerLogs(clients);

        Map<String, Runnable> calls = new LinkedHashMap<>();
        calls.put("inspect image", () -> runtime.create(spec("slow:1")));
        calls.put("create", () -> runtime.create(spec("good:1")));
        calls.put("create volume " + HostsFile.VOLUME, () -> bare.create(spec("good:2")));
        calls.put("version", () -> auto.create(spec("good:3")));
        // A bare namespace's /etc/hosts is checked through the engine's stat of it before the start.
        calls.put("stat /etc/hosts", () -> ContainerPaths.stat(clients, "c1", HostsFile.TARGET));
        calls.put("start", () -> runtime.start("c1"));
        calls.put("inspect", () -> runtime.inspect("c1"));
        calls.put("kill", () -> runtime.signal("c1", "SIGTERM"));
        calls.put("remove", () -> runtime.remove("c1"));
        calls.put("list containers", runtime::managed);
        if (fault != Fault.HALF_BODY) {
            // Streams are bounded by the deadline only until the engine has sent a head.
            calls.put("wait", () -> runtime.awaitExit("c1"));
            calls.put("logs", () -> logs.read("c1", true, 0, 0, 100, SecretMasker.NONE));
            calls.put("attach", () -> runtime.attach("c1", null).close());
        }

        Map<String, Future<Outcome>> running = new LinkedHashMap<>();
        calls.forEach((name, call) -> running.put(name, callers.submit(() -> outcome(call))));
        for (Map.Entry<String, Future<Outcome>> call : running.entrySet()) {
            String name = call.getKey();
            // The call's thread is free again: its task returned, within the bound.
            Outcome outcome = call.getValue().get(WITHIN.toMillis() + 2000, TimeUnit.MILLISECONDS);
            assertThat(outcome.took()).as(name).isLessThan(WITHIN);
            if (fault == Fault.HALF_BODY && bodiless(name)) {
                // docker-java reads no body of a start, kill or remove: the head was the answer.
                assertThat(outcome.failure()).as(name).isNull();
                continue;
            }
            assertThat(outcome.failure()).as(name).isNotNull();
            assertThat(outcome.failure().reason()).as(name).isEqualTo(ContainerException.Reason.ENGINE_UNAVAILABLE);
            assertThat(outcome.failure().timedOut()).as(name).isTrue();
            assertThat(outcome.failure().getMessage())
                    .as(name)
                    .isEqualTo(name + ": the Docker engine did not answer within 1 s");
        }
        // Each is announced once, by its operation: a timeout before the head, or an answer whose body then stalled.
        Set<String> operations = Set.of(
                "inspect_image",
                "create",
                "other", // the volume, the version, the stat
                "start",
                "inspect",
                "kill",
                "remove",
                "list",
                "wait",
                "logs",
                "attach");
        EngineCall.Outcome outcome = fault == Fault.HALF_BODY ? EngineCall.Outcome.OK : EngineCall.Outcome.TIMEOUT;
        assertThat(observed.stream()
                        .filter(c -> c.outcome() == outcome)
                        .map(EngineCall::operation)
                        .collect(Collectors.toSet()))
                .isEqualTo(
                        fault == Fault.HALF_BODY
                                ? Set.of(
                                        "inspect_image",
                                        "create",
                                        "other",
                                        "start",
                                        "inspect",
                                        "kill",
                                        "remove",
                                        "list")
                                : operations);
        assertThat(observed).hasSize(calls.size() + 3); // the good image's inspections, answered
        assertThat(engine.accepted()).isGreaterThanOrEqualTo(calls.size());
        assertThat(engine.awaitAllClosed(WITHIN)).as("every connection closed").isTrue();
        assertThat(streamThreads()).as("docker-java's wait threads ended").isEmpty();
    }

    private static boolean bodiless(String call) {
        return List.of("start", "kill", "remove", "stat /etc/hosts").contains(call);
    }

    private record Outcome(Duration took, ContainerException failure) {}

    private static Outcome outcome(Runnable call) {
        long start = System.nanoTime();
        try {
            call.run();
            return new Outcome(Duration.ofNanos(System.nanoTime() - start), null);
        } catch (ContainerException e) {
            return new Outcome(Duration.ofNanos(System.nanoTime() - start), e);
        }
    }

    private static List<Thread> streamThreads() throws InterruptedException {
        // The wait's thread ends just after the failure it reports.
        List<Thread> alive = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            alive = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith("docker-java-stream-"))
                    .toList();
            if (alive.isEmpty()) {
                break;
            }
            Thread.sleep(10);
        }
        return alive;
    }

    private static ContainerSpec spec(String image) {
        return new ContainerSpec(
                image, List.of("true"), Map.of(), null, false, Map.of(), 64L << 20, 0, 64, "none", null, null);
    }

    private static DockerConfig config(ScriptedEngine engine) {
        return new TestDocker.Docker(
                Optional.of(engine.host().toString()), Duration.ofSeconds(1), CALL_TIMEOUT, Duration.ofMillis(500), 8);
    }
}
