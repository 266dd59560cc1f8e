package dev.sluice.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.FakeEngine;
import dev.sluice.testsupport.FakeEngine.Fault;
import dev.sluice.testsupport.FakeEngine.Reply;
import dev.sluice.testsupport.FakeEngine.Transport;
import dev.sluice.testsupport.TestDocker;

/** The monitor against engines of our own: one missing, one whose ping goes slow. */
class EngineMonitorTest {

    private FakeEngine engine;
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

    private EngineMonitor monitor(String host) {
        clients = DockerClients.connect(new TestDocker.Docker(
                Optional.of(host), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(300)));
        return new EngineMonitor(clients, Duration.ofMillis(300), Clock.systemUTC());
    }

    @Test
    void aMissingSocketIsDownAtOnceWithTheReason() {
        EngineMonitor m = monitor("unix:///nonexistent/sluice-test.sock");
        EngineMonitor.Availability a = m.check();
        assertThat(a.available()).isFalse();
        assertThat(a.problem()).startsWith("ping: Docker engine unreachable");
    }

    @Test
    void anEngineThatIsSlowOnceStaysAvailableButNotForever() {
        AtomicBoolean slow = new AtomicBoolean();
        engine = FakeEngine.start(Transport.UNIX, request -> slow.get() ? Fault.SILENT : Reply.answer(200, "OK"));
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
}
