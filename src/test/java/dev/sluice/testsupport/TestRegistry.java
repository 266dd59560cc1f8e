package dev.sluice.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The registries the pull tests pull from: the test registry
 * scripts/registry.sh runs (TLS, a password, the agent image pushed), as
 * target/registry.env describes it, and one that stalls every pull.
 */
public final class TestRegistry {

    private TestRegistry() {}

    /**
     * What scripts/registry.sh wrote: {@code SLUICE_TEST_REGISTRY} (host:port),
     * {@code _USER}, {@code _PASSWORD}, {@code _CA}, {@code _IMAGE}, {@code _LOG}.
     */
    public static Properties env() {
        Properties env = new Properties();
        try (InputStream in = Files.newInputStream(Path.of("target/registry.env"))) {
            env.load(in);
        } catch (IOException e) {
            throw new IllegalStateException("target/registry.env is missing: run scripts/registry.sh", e);
        }
        return env;
    }

    /** Accepts every connection and never says a word: a registry that stalls a pull at its first byte. */
    public static ServerSocket stalling() {
        try {
            ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread acceptor = new Thread(() -> {
                List<Socket> held = new ArrayList<>();
                while (!server.isClosed()) {
                    try {
                        held.add(server.accept());
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            return server;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
