package dev.sluice.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.sandbox.ContainerSpec;
import dev.sluice.container.sandbox.Labels;
import dev.sluice.container.stream.Attachment;
import dev.sluice.container.stream.OutputSink;
import dev.sluice.output.CapturedOutput;
import dev.sluice.output.OutputCollector;
import dev.sluice.output.SecretMasker;
import dev.sluice.testsupport.TestDocker;

/**
 * A real container from the test image, its output demultiplexed into two
 * collectors: counts exact, heads and tails equal to what the process wrote.
 */
class ContainerOutputIT {

    private static final int STDOUT_CAP = 4 << 20;
    private static final int STDERR_CAP = 256 << 10;
    private static final String NONCE = "it-nonce";

    private static DockerClients clients;
    private static ContainerRuntime runtime;

    @BeforeAll
    static void connect() {
        clients = TestDocker.clients();
        runtime = new ContainerRuntime(clients, TestDocker.containerConfig());
    }

    @AfterAll
    static void close() throws Exception {
        clients.close();
    }

    @Test
    void tenMebibytesOfStdoutAndOneOfStderrAtOnceAreBoundedExactly() throws Exception {
        int stdoutBytes = 10 << 20;
        int stderrBytes = 1 << 20;
        Run run = run("seq 1 3000000 | head -c " + stdoutBytes + " & seq 1 500000 | head -c " + stderrBytes
                + " >&2; wait; exit 0");

        assertThat(run.exitCode).isZero();
        assertThat(run.end.clean()).isTrue();
        assertBounded(run.stdout, seq(3_000_000, stdoutBytes), STDOUT_CAP);
        assertBounded(run.stderr, seq(500_000, stderrBytes), STDERR_CAP);
    }

    @Test
    void outputWithinTheCapsComesBackWhole() throws Exception {
        Run run = run("printf 'h\\303\\251llo\\nworld\\n'; printf 'warn\\n' >&2; exit 7");

        assertThat(run.exitCode).isEqualTo(7);
        assertThat(run.stdout.text().toString()).isEqualTo("h\u00e9llo\nworld\n");
        assertThat(run.stdout.overflow()).isNull();
        assertThat(run.stdout.originalBytes()).isEqualTo(13);
        assertThat(run.stderr.text().toString()).isEqualTo("warn\n");
        assertThat(run.stderr.overflow()).isNull();
    }

    /** Each call is refused as expected (it throws otherwise), and nothing of the warm-up's is on the engine. */
    @Test
    void warmingUpCreatesNothing() {
        String name = "warm-up-" + UUID.randomUUID();
        new EngineWarmUp(runtime, clients, TestDocker.dockerConfig().callTimeout()).run(name);

        // Its own name alone: workers that other test classes start at the same time warm up too.
        assertThat(clients.control().listContainersCmd().withShowAll(true).exec())
                .noneMatch(c -> List.of(c.getNames()).stream().anyMatch(n -> n.contains(name)));
    }

    private static void assertBounded(CapturedOutput out, byte[] written, int cap) {
        String whole = new String(written, StandardCharsets.UTF_8);
        assertThat(out.originalBytes()).isEqualTo(written.length);
        assertThat(out.overflow()).isNotNull();
        assertThat(out.overflow().originalBytes()).isEqualTo(written.length);
        assertThat(out.overflow().keptBytes())
                .isEqualTo(out.text().length())
                .isLessThanOrEqualTo(cap)
                .isGreaterThan(cap - 16 * 1024);
        String[] parts = out.text()
                .toString()
                .split(
                        "\n\\[\\.\\.\\. sluice " + NONCE + ": \\d+ of " + written.length
                                + " bytes of std(out|err) omitted; full log: \\S+ \\.\\.\\.]\n",
                        -1);
        assertThat(parts).hasSize(2);
        assertThat(whole).startsWith(parts[0]).endsWith(parts[1]);
        assertThat(parts[0].length() + out.overflow().droppedBytes() + parts[1].length())
                .isEqualTo(written.length);
    }

    /** What {@code seq 1 n | head -c bytes} prints. */
    private static byte[] seq(int n, int bytes) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= n && sb.length() < bytes; i++) {
            sb.append(i).append('\n');
        }
        return sb.substring(0, bytes).getBytes(StandardCharsets.US_ASCII);
    }

    private record Run(int exitCode, Attachment.StreamEnd end, CapturedOutput stdout, CapturedOutput stderr) {}

    private static Run run(String script) throws Exception {
        ContainerSpec spec = new ContainerSpec(
                TestDocker.AGENT_IMAGE,
                List.of("sh", "-c", script),
                Map.of(),
                null,
                false,
                // A store no worker reads: no worker reaps it, whichever JVM runs one beside.
                Map.of(Labels.DISPATCH_ID, "it-output", Labels.WORKER_ID, "test", Labels.STORE_ID, "output-it"),
                256L << 20,
                0,
                256,
                "none",
                null,
                null);
        String id = runtime.create(spec);
        try {
            OutputCollector stdout = new OutputCollector(
                    "stdout", STDOUT_CAP, "/v1/dispatches/it/logs/stdout", NONCE, SecretMasker.NONE);
            OutputCollector stderr = new OutputCollector(
                    "stderr", STDERR_CAP, "/v1/dispatches/it/logs/stderr", NONCE, SecretMasker.NONE);
            OutputSink sink = new OutputSink() {
                @Override
                public void stdout(byte[] chunk, int offset, int count) {
                    stdout.write(chunk, offset, count);
                }

                @Override
                public void stderr(byte[] chunk, int offset, int count) {
                    stderr.write(chunk, offset, count);
                }
            };
            try (Attachment attachment = runtime.attach(id, null)) {
                runtime.start(id);
                Attachment.StreamEnd end = CompletableFuture.supplyAsync(() -> attachment.pump(sink))
                        .get(60, TimeUnit.SECONDS);
                int exit = runtime.awaitExit(id);
                return new Run(exit, end, stdout.finish(), stderr.finish());
            }
        } finally {
            runtime.remove(id);
        }
    }
}
