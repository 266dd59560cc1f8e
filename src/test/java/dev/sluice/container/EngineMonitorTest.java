package dev.sluice.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The monitor against sockets of our own: one missing, one that accepts and never answers. */
class EngineMonitorTest {

    private final ExecutorService pinger = Executors.newCachedThreadPool();
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
        pinger.shutdownNow();
    }

    private EngineMonitor monitor(URI host) {
        return new EngineMonitor(host, Duration.ofMillis(500), Duration.ofMillis(300), pinger, Clock.systemUTC());
    }

    @Test
    void aMissingSocketIsDownAtOnceWithTheReason() {
        EngineMonitor m = monitor(URI.create("unix:///nonexistent/sluice-test.sock"));
        EngineMonitor.Availability a = m.check();
        assertThat(a.available()).isFalse();
        assertThat(a.problem()).startsWith("Docker engine unreachable");
    }

    @Test
    void anEngineThatIsSlowOnceStaysAvailableButNotForever() throws Exception {
        Path dir = Files.createTempDirectory("sluice-mon");
        Path socket = dir.resolve("engine.sock");
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        open.add(server);
        // Answers the first ping, then accepts and never answers again.
        pinger.execute(() -> {
            try {
                SocketChannel first = server.accept();
                first.read(java.nio.ByteBuffer.allocate(1024));
                first.write(java.nio.ByteBuffer.wrap("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nOK".getBytes()));
                first.close();
                while (true) {
                    open.add(server.accept());
                }
            } catch (Exception e) {
                // closed by the test
            }
        });
        EngineMonitor m = monitor(URI.create("unix://" + socket));
        assertThat(m.check().available()).isTrue();
        for (int slow = 1; slow < EngineMonitor.SLOW_PINGS_TO_DOWN; slow++) {
            EngineMonitor.Availability a = m.check();
            assertThat(a.available()).as("after %d slow pings", slow).isTrue();
            assertThat(a.problem()).contains("did not answer a ping");
        }
        assertThat(m.check().available()).isFalse();
    }
}
