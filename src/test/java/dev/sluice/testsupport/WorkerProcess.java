package dev.sluice.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The packaged worker (target/sluice-runner.jar) running as a process of its own,
 * to be killed with SIGKILL, stopped with SIGTERM and started again over the
 * same store: what the crash tests do to it.
 */
public final class WorkerProcess extends WorkerClient implements AutoCloseable {

    private static final String HEAP = "-Xmx256m";
    /**
     * What a test worker starts with unless a test names its own options: the
     * heap bound, and the start-up settings the worker ships with (C1 only, one
     * compiler thread, the serial collector: deploy/jvm.options, ADR 0048) and
     * its class-data archive. On two shared cores the JVM's defaults took
     * 6-7 s and 9 CPU-s to start, these 3 s and 3 CPU-s, and the suite starts
     * the worker some hundred times.
     */
    private static final List<String> START_UP =
            List.of("-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:+UseSerialGC");

    private static final Path JAR = Path.of("target/sluice-runner.jar");

    private final Process process;
    private final Path log;

    private WorkerProcess(Process process, int port, int managementPort, Path log) {
        super("http://127.0.0.1:" + port, "http://127.0.0.1:" + managementPort);
        this.process = process;
        this.log = log;
    }

    /**
     * Settings every test worker shares: the API on loopback, where it needs no
     * token (ADR 0053); callbacks to loopback receivers, signed, quickly retried.
     */
    public static Map<String, String> baseEnvironment(Path dataDir, String workerId) {
        Map<String, String> env = new HashMap<>();
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        env.put("SLUICE_DATA_DIR", dataDir.toString());
        env.put("SLUICE_WORKER_ID", workerId);
        env.put("SLUICE_CALLBACK_SIGNING_SECRETS", String.join(",", Signatures.TEST_SECRETS));
        env.put("SLUICE_CALLBACK_ALLOWED_HOSTS", "127.0.0.1");
        env.put("SLUICE_CALLBACK_RETRY_SCHEDULE", "0s,1s,1s,1s,1s,1s,1s,1s");
        env.put("SLUICE_CALLBACK_JITTER", "0");
        env.put("SLUICE_DISPATCH_STOP_GRACE", "2s");
        env.put("SLUICE_DISPATCH_DEFAULT_MEMORY", "128M");
        env.put("SLUICE_WORKER_RECONCILE_INTERVAL", "2s");
        env.put("QUARKUS_LOG_LEVEL", "INFO");
        return env;
    }

    /** {@link #baseEnvironment} in a fresh data directory named after the worker, with {@code overrides} over it. */
    public static Map<String, String> environment(String workerId, Map<String, String> overrides) {
        Map<String, String> env = baseEnvironment(freshDataDir(workerId), workerId);
        env.putAll(overrides);
        return env;
    }

    /** Starts the worker and waits until it reports started (the store is migrated, reconciliation has run). */
    public static WorkerProcess start(Map<String, String> env) {
        return start(env, defaultOptions().toArray(String[]::new));
    }

    /** Starts the worker as {@link #start(Map)} does, writing each class it loads to {@code classLog}. */
    public static WorkerProcess startLoggingClasses(Map<String, String> env, Path classLog) {
        return start(env, HEAP, "-Xlog:class+load=info:file=" + classLog);
    }

    private static List<String> defaultOptions() {
        List<String> options = new ArrayList<>(List.of(HEAP));
        options.addAll(START_UP);
        TestClassDataArchive.option().ifPresent(options::add);
        return options;
    }

    /**
     * Starts the worker as users start it: through scripts/worker.sh, with the
     * JVM options it ships with (deploy/jvm.options), the C library's arenas
     * limited and the AppCDS archive of this build of the jar (written the first
     * time, ADR 0048), unless {@code env} says otherwise; with this JVM's java.
     */
    public static WorkerProcess startAsShipped(Map<String, String> env) {
        Map<String, String> shipped = new HashMap<>(env);
        shipped.put("PATH", Path.of(javaBinary()).getParent() + File.pathSeparator + System.getenv("PATH"));
        return launch(List.of("bash", Path.of("scripts/worker.sh").toString()), shipped);
    }

    /** Starts the worker with the given JVM options. */
    public static WorkerProcess start(Map<String, String> env, String... jvmOptions) {
        List<String> command = new ArrayList<>(List.of(javaBinary()));
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-jar", JAR.toString()));
        return launch(command, env);
    }

    /**
     * Spawns the worker and waits until it started; one that did not start in time is killed, with what it
     * started (scripts/worker.sh's class-data training run), before the failure is thrown: left alone it
     * would go on starting, and then serving and reconciling, beside every test after it.
     */
    private static WorkerProcess launch(List<String> command, Map<String, String> env) {
        WorkerProcess worker = spawn(command, env);
        try {
            worker.awaitStarted();
        } catch (RuntimeException | Error e) {
            worker.process.descendants().forEach(ProcessHandle::destroyForcibly);
            worker.close(); // one that did not start in time is not left running behind the failed test
            throw e;
        }
        return worker;
    }

    /**
     * Starts the packaged worker with the given environment and returns at once,
     * started or not: for a test of a worker that must refuse to start.
     */
    public static WorkerProcess spawn(Map<String, String> env) {
        List<String> command = new ArrayList<>(List.of(javaBinary()));
        command.addAll(defaultOptions());
        command.addAll(List.of("-jar", JAR.toString()));
        return spawn(command, env);
    }

    /**
     * Starts the packaged worker with a setting it must refuse, and returns its
     * log once it has exited, failing unless it exited, and not with 0, within a minute.
     */
    public static String refusal(Map<String, String> env) {
        try (WorkerProcess refused = spawn(env)) {
            assertThat(refused.awaitExit(Duration.ofSeconds(60)))
                    .as("exited; see %s", refused.logPath())
                    .isTrue();
            assertThat(refused.exitValue())
                    .as("exit value; see %s", refused.logPath())
                    .isNotZero();
            return refused.logText();
        }
    }

    private static WorkerProcess spawn(List<String> command, Map<String, String> env) {
        if (!Files.exists(JAR)) {
            throw new IllegalStateException(JAR + " is missing: integration tests run after package");
        }
        try {
            int port = freePort();
            int managementPort = freePort();
            Path log = Files.createTempFile(Path.of("target"), "worker-", ".log");
            ProcessBuilder builder =
                    new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(env);
            builder.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
            builder.environment().put("QUARKUS_MANAGEMENT_PORT", Integer.toString(managementPort));
            return new WorkerProcess(builder.start(), port, managementPort, log);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Waits until the worker reports started, failing at once when it exits. */
    public void awaitStarted() {
        awaitStarted(Duration.ofSeconds(60), process::isAlive, () -> "see " + log);
    }

    /** SIGKILL: no shutdown hooks, no drain. */
    public void kill() {
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(30));
    }

    /** SIGTERM, as Kubernetes sends it. */
    public void terminate() {
        process.destroy();
    }

    public boolean awaitExit(Duration within) {
        try {
            return process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    public long pid() {
        return process.pid();
    }

    public boolean alive() {
        return process.isAlive();
    }

    public int exitValue() {
        return process.exitValue();
    }

    public Path logPath() {
        return log;
    }

    public String logText() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }

    static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** A port nothing listens on now, for a worker to take. */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Where a test's workers keep their store: a fresh directory under target/. */
    public static Path freshDataDir(String name) {
        try {
            return Files.createTempDirectory(new File("target").toPath(), name + "-")
                    .toAbsolutePath();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
