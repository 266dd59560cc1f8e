package dev.sluice.container.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.testsupport.ScriptedEngine;
import dev.sluice.testsupport.ScriptedEngine.Fault;
import dev.sluice.testsupport.ScriptedEngine.Reply;
import dev.sluice.testsupport.ScriptedEngine.Transport;
import dev.sluice.testsupport.TestDocker;

/** The monitor against engines of our own: one missing, one whose ping goes slow, one whose calls hang. */
class EngineMonitorTest {

    private final ExecutorService prober = Executors.newSingleThreadExecutor();
    private ScriptedEngine engine;
    private DockerClients clients;

    @AfterEach
    void close() throws Exception {
        prober.shutdownNow();
        if (clients != null) {
            clients.close();
        }
        if (engine != null) {
            engine.close();
        }
    }

    private EngineMonitor monitor(String host) {
        clients = DockerClients.connect(new TestDocker.Docker(
                Optional.of(host), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(300), 0));
        return new EngineMonitor(clients, Duration.ofMillis(300), prober, Clock.systemUTC());
    }

    @Test
    void aMissingSocketIsDownAtOnceWithTheReason() {
        EngineMonitor m = monitor("unix:///nonexistent/sluice-test.sock");
        EngineMonitor.Availability a = m.check();
        assertThat(a.available()).isFalse();
        assertThat(a.problem()).startsWith("ping: Docker engine unreachable");
        assertThat(a.callsTimingOut()).isFalse();
    }

    @Test
    void anEngineThatIsSlowOnceStaysAvailableButNotForever() {
        AtomicBoolean slow = new AtomicBoolean();
        engine = ScriptedEngine.start(Transport.UNIX, request -> slow.get() ? Fault.SILENT : Reply.answer(200, "OK"));
        EngineMonitor m = monitor(engine.host().toString());
        assertThat(m.check().available()).isTrue();
        slow.set(true);
        for (int i = 1; i < EngineMonitor.SLOW_PINGS_TO_DOWN; i++) {
            EngineMonitor.Availability a = m.check();
            assertThat(a.available()).as("after %d slow pings", i).isTrue();
            assertThat(a.problem()).isEqualTo("Docker engine did not answer a ping within 300 ms (" + i + " in a row)");
        }
        assertThat(m.check().available()).isFalse();
    }

    @Test
    void callsTimingOutTakeItDownThoughItAnswersItsPingUntilCallsAreAnsweredAgain() {
        AtomicBoolean wedged = new AtomicBoolean(true);
        engine = ScriptedEngine.start(
                Transport.UNIX,
                request -> request.endsWith("/_ping")
                        ? Reply.answer(200, "OK")
                        : wedged.get() ? Fault.SILENT : Reply.answer(200, "[]"));
        EngineMonitor m = monitor(engine.host().toString());
        ContainerRuntime runtime = new ContainerRuntime(clients, TestDocker.containerConfig());
        assertThat(m.check().available()).isTrue();

        assertThatThrownBy(() -> runtime.inspect("c1")).isInstanceOf(ContainerException.class);

        EngineMonitor.Availability down = m.check();
        assertThat(down.available()).isFalse();
        assertThat(down.callsTimingOut()).isTrue();
        assertThat(down.problem())
                .startsWith("Docker engine calls are timing out: GET ")
                .contains("/containers/c1/json did not answer within 1 s");

        // Time alone does not bring it back: the monitor's probes time out too.
        await().pollDelay(Duration.ofMillis(1500)).until(() -> true);
        assertThat(m.check().available()).isFalse();

        wedged.set(false);
        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> m.check().available());
        assertThat(m.last().callsTimingOut()).isFalse();
        assertThat(m.last().problem()).isNull();
    }
}
