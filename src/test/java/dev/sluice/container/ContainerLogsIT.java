package dev.sluice.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.LogConfig;

import dev.sluice.container.engine.ContainerException;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.sandbox.ContainerSpec;
import dev.sluice.container.sandbox.Labels;
import dev.sluice.container.stream.Attachment;
import dev.sluice.container.stream.FrameDemuxerTest.Recorder;
import dev.sluice.output.OutputCollector;
import dev.sluice.output.SecretMasker;
import dev.sluice.testsupport.TestDocker;

/** Reading a finished container's output back from the runtime's log: whole, and by range. */
class ContainerLogsIT {

    /** A store no worker reads: the containers here are no worker's to reap, whichever JVM runs one beside. */
    private static final String STORE = "logs-it";

    private static DockerClients clients;
    private static ContainerRuntime runtime;
    private static ContainerLogs logs;
    private static String container;

    @BeforeAll
    static void runOne() {
        clients = TestDocker.clients();
        runtime = new ContainerRuntime(clients, TestDocker.containerConfig());
        logs = new ContainerLogs(clients);
        container = runtime.create(new ContainerSpec(
                TestDocker.AGENT_IMAGE,
                List.of("sh", "-c", "seq 1 50000; echo key=SeCrEtVaLuE; seq 1 2000 >&2"),
                Map.of(),
                null,
                false,
                Map.of(Labels.DISPATCH_ID, "d-logs", Labels.WORKER_ID, "logs-it", Labels.STORE_ID, STORE),
                64L << 20,
                0,
                64,
                "none",
                null,
                null));
        runtime.start(container);
        runtime.awaitExit(container);
    }

    @AfterAll
    static void close() throws Exception {
        runtime.remove(container);
        clients.close();
    }

    private static String seq(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            sb.append(i).append('\n');
        }
        return sb.toString();
    }

    @Test
    void replayGivesBothStreamsWhole() {
        Recorder both = new Recorder();
        Attachment.StreamEnd end = logs.replay(container, both);
        assertThat(end.clean()).isTrue();
        assertThat(both.out.toString(StandardCharsets.UTF_8)).isEqualTo(seq(50000) + "key=SeCrEtVaLuE\n");
        assertThat(both.err.toString(StandardCharsets.UTF_8)).isEqualTo(seq(2000));
    }

    @Test
    void rangesAreExactAndMaskedAcrossTheirEdges() {
        String stdout = seq(50000) + "key=SeCrEtVaLuE\n";
        int at = stdout.indexOf("SeCrEtVaLuE");
        ContainerLogs.Range plain = logs.read(container, true, 0, 100, 50, SecretMasker.NONE);
        assertThat(new String(plain.bytes(), StandardCharsets.UTF_8)).isEqualTo(stdout.substring(100, 150));
        assertThat(plain.endOfLog()).isFalse();

        SecretMasker masker = new SecretMasker(List.of("SeCrEtVaLuE"), 8);
        ContainerLogs.Range edge = logs.read(container, true, 0, at + 3, 100, masker);
        assertThat(new String(edge.bytes(), StandardCharsets.UTF_8)).isEqualTo("********\n");
        assertThat(edge.endOfLog()).isTrue();
        ContainerLogs.Range before = logs.read(container, true, 0, at - 4, 6, masker);
        assertThat(new String(before.bytes(), StandardCharsets.UTF_8)).isEqualTo("key=**");

        ContainerLogs.Range stderr = logs.read(container, false, 0, 0, 1 << 20, SecretMasker.NONE);
        assertThat(new String(stderr.bytes(), StandardCharsets.UTF_8)).isEqualTo(seq(2000));
    }

    @Test
    void heldCountsWhatTheRuntimeReturnsOfEachStream() {
        ContainerLogs.Held held = logs.held(container, Long.MAX_VALUE);
        assertThat(held)
                .isEqualTo(new ContainerLogs.Held(
                        seq(50000).length() + "key=SeCrEtVaLuE\n".length(),
                        seq(2000).length(),
                        true));
        ContainerLogs.Held stopped = logs.held(container, 1000);
        assertThat(stopped.complete()).isFalse();
        assertThat(stopped.total()).isGreaterThan(1000);
    }

    @Test
    void aLogThatBeginsLaterIsReadAtAbsoluteOffsets() {
        // As if the runtime's copy began at byte 1000 of the stream: its first byte held is that offset.
        String stdout = seq(50000);
        ContainerLogs.Range range = logs.read(container, true, 1000, 1100, 50, SecretMasker.NONE);
        assertThat(range.offset()).isEqualTo(1100);
        assertThat(new String(range.bytes(), StandardCharsets.UTF_8)).isEqualTo(stdout.substring(100, 150));
    }

    @Test
    void aRemovedContainerHasNoLog() {
        String gone = runtime.create(new ContainerSpec(
                TestDocker.AGENT_IMAGE,
                List.of("true"),
                Map.of(),
                null,
                false,
                Map.of(Labels.DISPATCH_ID, "d-gone", Labels.WORKER_ID, "logs-it", Labels.STORE_ID, STORE),
                0,
                0,
                0,
                "none",
                null,
                null));
        runtime.remove(gone);
        assertThatThrownBy(() -> logs.read(gone, true, 0, 0, 10, SecretMasker.NONE))
                .isInstanceOf(ContainerException.class)
                .extracting(e -> ((ContainerException) e).reason())
                .isEqualTo(ContainerException.Reason.NOT_FOUND);
    }

    @Test
    void theEngineDescribesTheLogAsTheWorkerSetItUp() {
        LogSetup setup = logs.setup(container);
        assertThat(setup).isEqualTo(new LogSetup("Engine", "json-file", Set.of("max-size", "max-file", "compress")));
        LogRetention retention = new LogRetention(TestDocker.containerConfig());
        assertThat(retention.forLog(setup)).isSameAs(retention);
    }

    @Test
    void anOptionThatAddsToEveryRecordIsInTheSetup() {
        String tagged = clients.control()
                .createContainerCmd(TestDocker.AGENT_IMAGE)
                .withCmd("true")
                .withLabels(Map.of(Labels.DISPATCH_ID, "d-tagged", Labels.WORKER_ID, "logs-it", Labels.STORE_ID, STORE))
                .withHostConfig(HostConfig.newHostConfig()
                        .withNetworkMode("none")
                        .withLogConfig(new LogConfig(
                                LogConfig.LoggingType.JSON_FILE, Map.of("max-size", "1m", "tag", "{{.Name}}"))))
                .exec()
                .getId();
        try {
            assertThat(logs.setup(tagged)).isEqualTo(new LogSetup("Engine", "json-file", Set.of("max-size", "tag")));
        } finally {
            runtime.remove(tagged);
        }
    }

    private static final Pattern TIME = Pattern.compile("\"time\":\"([^\"]+)\"");

    /**
     * The count of ADR 0036 against the log file the engine wrote (read from
     * the engine's host, which the suite's engine shares): above it by the
     * bytes the timestamps fell short of their longest, and by a frame for
     * each message the count allows that the driver did not write (the end
     * of each stream, empty here, and a cut per 16 KiB).
     */
    @Test
    void theCountIsTheLogFileTheEngineWroteAndNoLess() throws IOException {
        Path file =
                Path.of(clients.control().inspectContainerCmd(container).exec().getLogPath());
        List<String> records = Files.readAllLines(file, StandardCharsets.UTF_8);
        long shortTimes = 0;
        for (String record : records) {
            Matcher time = TIME.matcher(record);
            assertThat(time.find()).as(record).isTrue();
            shortTimes +=
                    "2026-11-23T21:42:17.516484408Z".length() - time.group(1).length();
        }
        byte[] stdout = (seq(50000) + "key=SeCrEtVaLuE\n").getBytes(StandardCharsets.UTF_8);
        byte[] stderr = seq(2000).getBytes(StandardCharsets.UTF_8);
        long bound = counted("stdout", stdout) + counted("stderr", stderr);
        long phantoms = (1 + stdout.length / (16 << 10)) + (1 + stderr.length / (16 << 10));
        assertThat(records).hasSize(50000 + 1 + 2000);
        assertThat(bound).isEqualTo(Files.size(file) + shortTimes + phantoms * 69);
    }

    private static long counted(String stream, byte[] written) {
        OutputCollector collector = new OutputCollector(stream, 1 << 20, "/logs", "n", SecretMasker.NONE);
        for (int at = 0; at < written.length; at += 1024) {
            collector.write(written, at, Math.min(1024, written.length - at));
        }
        return collector.jsonFileLogBound();
    }
}
