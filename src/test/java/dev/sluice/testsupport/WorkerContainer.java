package dev.sluice.testsupport;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The worker's JVM image (Dockerfile.jvm) run as a container, the way the
 * Kubernetes manifests run it: not root, read-only root filesystem, no
 * capabilities, a volume for the store and one for /tmp, the engine's socket
 * mounted with its group added. The container shares the host's network, so
 * the test reaches its port and it reaches the test's receivers on loopback
 * (the engine here has no bridge network).
 */
public final class WorkerContainer extends WorkerClient implements AutoCloseable {

    /** The worker's id, which names its container too. */
    private final String name;

    private WorkerContainer(String name, int port, int managementPort) {
        super("http://127.0.0.1:" + port, "http://127.0.0.1:" + managementPort);
        this.name = name;
    }

    /**
     * Creates the container (not started) with the test workers' settings
     * ({@link WorkerProcess#baseEnvironment}), {@code env} over them, and
     * {@code command} in place of the image's entrypoint when given.
     */
    public static WorkerContainer create(String image, String workerId, Map<String, String> env, String... command) {
        try {
            int port = WorkerProcess.freePort();
            int managementPort = WorkerProcess.freePort();
            Path socket = engineSocket();
            int socketGroup = (Integer) Files.getAttribute(socket, "unix:gid");
            List<String> args = new ArrayList<>(List.of(
                    "create",
                    "--name",
                    workerId,
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
                    Integer.toString(socketGroup)));
            Map<String, String> all = WorkerProcess.baseEnvironment(Path.of("/deployments/data"), workerId);
            all.put("QUARKUS_HTTP_PORT", Integer.toString(port));
            all.put("QUARKUS_MANAGEMENT_PORT", Integer.toString(managementPort));
            all.putAll(env);
            all.forEach((k, v) -> args.addAll(List.of("-e", k + "=" + v)));
            if (command.length > 0) {
                args.addAll(List.of("--entrypoint", command[0], image));
                args.addAll(List.of(command).subList(1, command.length));
            } else {
                args.add(image);
            }
            docker(args.toArray(String[]::new));
            return new WorkerContainer(workerId, port, managementPort);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Creates and starts the container, and waits until the worker reports started. */
    public static WorkerContainer start(String image, String workerId, Map<String, String> env) {
        WorkerContainer worker = create(image, workerId, env);
        worker.start();
        worker.awaitStarted();
        return worker;
    }

    /** {@code docker start}: returns once the container's process runs. */
    public void start() {
        docker("start", name);
    }

    private void awaitStarted() {
        awaitStarted(Duration.ofSeconds(90), this::running, this::logs);
    }

    private boolean running() {
        return docker("inspect", "-f", "{{.State.Running}}", name)
                .stdout()
                .strip()
                .equals("true");
    }

    /** SIGTERM to the container's first process, the JVM, as Kubernetes sends it. */
    public void terminate() {
        docker("kill", "--signal", "TERM", name);
    }

    /** Waits for the container to exit and returns its exit status. */
    public int awaitExit(Duration within) {
        Program.Result exit = Program.run("", within, "docker", "wait", name);
        if (exit.exitCode() != 0) {
            throw new IllegalStateException("docker wait failed: " + exit.output());
        }
        return Integer.parseInt(exit.stdout().strip());
    }

    /** The JVM's process id on the host, for /proc readings. */
    public long pid() {
        return Long.parseLong(
                docker("inspect", "-f", "{{.State.Pid}}", name).stdout().strip());
    }

    /** What the worker logged. */
    public String logs() {
        return Program.run("", Duration.ofSeconds(30), "docker", "logs", name).output();
    }

    /** Removes the container and the dispatch containers its worker left. */
    @Override
    public void close() {
        Program.run("", Duration.ofSeconds(60), "docker", "rm", "-f", name);
        String left = docker("ps", "-aq", "--filter", "label=dev.sluice.worker-id=" + name)
                .stdout()
                .strip();
        if (!left.isEmpty()) {
            List<String> rm = new ArrayList<>(List.of("rm", "-f"));
            rm.addAll(left.lines().toList());
            docker(rm.toArray(String[]::new));
        }
    }

    /** The engine the tests use: DOCKER_HOST when it names a Unix socket, else the default one. */
    private static Path engineSocket() {
        String host = System.getenv().getOrDefault("DOCKER_HOST", "unix:///var/run/docker.sock");
        if (!host.startsWith("unix://")) {
            throw new IllegalStateException(
                    "the worker container mounts the engine's Unix socket; DOCKER_HOST is " + host);
        }
        return Path.of(URI.create(host).getPath());
    }

    /** One docker CLI call that must succeed. */
    public static Program.Result docker(String... args) {
        List<String> command = new ArrayList<>(List.of("docker"));
        command.addAll(List.of(args));
        Program.Result result = Program.run("", Duration.ofSeconds(60), command.toArray(String[]::new));
        if (result.exitCode() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed:\n" + result.output());
        }
        return result;
    }
}
