package dev.sluice.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Control over the Docker engine that scripts/docker-engine.sh started: stop
 * it in its tracks, let it go on, restart it. The daemon-fault tests need it,
 * in CI and on a developer's machine alike: where the engine is someone
 * else's, they fail saying how to have one of ours, and never touch it.
 */
public final class Engine {

    private static final Path PID_FILE =
            Path.of(System.getenv().getOrDefault("SLUICE_ENGINE_LOG_DIR", "/tmp/sluice-dockerd"), "dockerd.pid");

    private static final String NOT_OURS = "the engine was not started by scripts/docker-engine.sh: stop the one"
            + " that runs and run scripts/docker-engine.sh, since this test freezes and restarts the engine it started";

    private Engine() {}

    /**
     * Fails, wherever it runs, when the engine was not started by our script:
     * the test would stop or restart it, and someone else's engine is left alone.
     */
    public static void requireOurs() {
        if (pid() == null) {
            throw new IllegalStateException(NOT_OURS + " (no live process in " + PID_FILE + ")");
        }
    }

    /** SIGSTOP: the engine hangs, every call to it with it. */
    public static void freeze() {
        run("kill", "-STOP", pid());
    }

    /** SIGCONT. */
    public static void thaw() {
        run("kill", "-CONT", pid());
    }

    /** Stops the engine (its containers with it) and starts it again. */
    public static void restart() {
        run("scripts/docker-engine.sh", "--restart");
    }

    private static String pid() {
        try {
            String pid = Files.readString(PID_FILE).strip();
            return Files.exists(Path.of("/proc", pid)) ? pid : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static void run(String... command) {
        try {
            Process p = new ProcessBuilder(command).inheritIO().start();
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed");
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
