package dev.sluice.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.sluice.container.ContainerLogs;
import dev.sluice.container.LogRetention;
import dev.sluice.container.LogSetup;
import dev.sluice.container.engine.ContainerException;
import dev.sluice.output.OutputCollector;
import dev.sluice.output.SecretMasker;
import dev.sluice.record.DispatchResult;
import dev.sluice.testsupport.TestDocker;

/**
 * When the worker reads the log back to place its start, and what it makes of
 * the count (ADR 0032, 0036), for logs set up as the count assumes and
 * otherwise (ADR 0049).
 */
class LogHoldingTest {

    /** A container's log as Docker describes it when only the worker's options apply: the records counted. */
    private static final LogSetup MEASURED =
            new LogSetup("Engine", "json-file", Set.of("max-size", "max-file", "compress"));

    /** 1 MiB x 2 files of json-file: at most 14563 bytes of output can never rotate (1 MiB / 72). */
    private static final long SAFE = (1L << 20) / 72;

    /** A log returning less than one full file of records, short by a record, lost nothing. */
    private static final long PROVEN = ((1L << 20) - (128 << 10)) / 72;

    /** One file of 1 MiB is what can never rotate with two files: a byte more of records may have. */
    private static final long TOO_MANY_RECORDS = (1L << 20) + 1;

    /** The runtime's answer to a count, and every count asked for; the log's setup as the engine describes it. */
    private static final class Counted extends ContainerLogs {
        private final Held answer;
        private final LogSetup setup;
        private final List<Long> asked = new ArrayList<>();

        Counted(Held answer) {
            this(answer, MEASURED);
        }

        /** @param setup null for an engine that does not answer the inspection */
        Counted(Held answer, LogSetup setup) {
            super(null);
            this.answer = answer;
            this.setup = setup;
        }

        @Override
        public LogSetup setup(String containerId) {
            if (setup == null) {
                throw new ContainerException(ContainerException.Reason.ENGINE_ERROR, "inspect: engine answered 500");
            }
            return setup;
        }

        @Override
        public Held held(String containerId, long stopAbove) {
            asked.add(stopAbove);
            if (answer == null) {
                throw new ContainerException(ContainerException.Reason.ENGINE_ERROR, "log read failed");
            }
            return answer;
        }
    }

    private static LogHolding holding(ContainerLogs logs) {
        return new LogHolding(new LogRetention(TestDocker.containerConfig("json-file", 1, 2)), logs);
    }

    @Test
    void outputThatCannotHaveRotatedIsWholeWithoutReadingTheLog() {
        Counted logs = new Counted(null);
        assertThat(holding(logs).atFinish("c", SAFE - 10, 10, Long.MAX_VALUE))
                .isEqualTo(DispatchResult.AvailableFrom.WHOLE);
        assertThat(logs.asked).isEmpty();
    }

    @Test
    void outputWhoseRecordsFitIsWholeWithoutReadingTheLogHoweverLong() {
        Counted logs = new Counted(null);
        assertThat(holding(logs).atFinish("c", 500_000, 10, 1L << 20)).isEqualTo(DispatchResult.AvailableFrom.WHOLE);
        assertThat(logs.asked).isEmpty();
    }

    @Test
    void longerOutputIsCountedAndTheMissingBytesAreTheOldest() {
        Counted logs = new Counted(new ContainerLogs.Held(600_000, 15, true));
        assertThat(holding(logs).atFinish("c", 4_000_000, 15, TOO_MANY_RECORDS))
                .isEqualTo(new DispatchResult.AvailableFrom(3_400_000, 0));
        assertThat(logs.asked).containsExactly(Long.MAX_VALUE);
    }

    @Test
    void aCountThatFailsLeavesTheStartUnknown() {
        assertThat(holding(new Counted(null)).atFinish("c", 4_000_000, 15, TOO_MANY_RECORDS))
                .isNull();
    }

    @Test
    void aRecoveredResultIsWholeOnlyWhenItsLogIsTooShortToHaveRotated() {
        Counted logs = new Counted(null);
        assertThat(holding(logs).atFinish("c", 1000, 0, LogHolding.UNKNOWN))
                .isEqualTo(DispatchResult.AvailableFrom.WHOLE);
        assertThat(holding(logs).atFinish("c", 4_000_000, 0, LogHolding.UNKNOWN))
                .isNull();
        assertThat(logs.asked).isEmpty();
    }

    @Test
    void aProbeProvesALogWholeOnlyBelowWhatFullFilesHold() {
        assertThat(holding(new Counted(new ContainerLogs.Held(PROVEN - 2, 1, true)))
                        .probe("c"))
                .isEqualTo(DispatchResult.AvailableFrom.WHOLE);
        assertThat(holding(new Counted(new ContainerLogs.Held(PROVEN - 1, 1, true)))
                        .probe("c"))
                .isNull();
        assertThat(holding(new Counted(new ContainerLogs.Held(PROVEN, 1, false)))
                        .probe("c"))
                .isNull();
    }

    /** A GiB written as this line over and over, and the json-file bound the collector counted for it. */
    private static long gibibyteBound(String line) {
        OutputCollector collector = new OutputCollector("stdout", 1 << 20, "/logs", "n", SecretMasker.NONE);
        byte[] block = line.repeat((1 << 20) / line.length()).getBytes(StandardCharsets.UTF_8);
        long times = (1L << 30) / block.length;
        // The bound grows by the same amount for each block, but for the one message that ends the stream.
        collector.write(block, 0, block.length);
        long one = collector.jsonFileLogBound();
        collector.write(block, 0, block.length);
        long perBlock = collector.jsonFileLogBound() - one;
        return one + (times - 1) * perBlock;
    }

    @Test
    void aGibibyteOfPlainLinesFitsTheDefaultsAndIsNotReadBack() {
        Counted logs = new Counted(null);
        LogHolding holding = new LogHolding(new LogRetention(TestDocker.containerConfig()), logs);
        String line = "0".repeat(99) + "\n";
        assertThat(holding.atFinish("c", 1L << 30, 0, gibibyteBound(line)))
                .isEqualTo(DispatchResult.AvailableFrom.WHOLE);
        assertThat(logs.asked).isEmpty();
    }

    @Test
    void aGibibyteOfEscapedBytesMayHaveRotatedAndIsReadBack() {
        Counted logs = new Counted(new ContainerLogs.Held(1L << 30, 0, true));
        LogHolding holding = new LogHolding(new LogRetention(TestDocker.containerConfig()), logs);
        String line = "<a href=\"x\">&amp;</a>\n";
        assertThat(holding.atFinish("c", 1L << 30, 0, gibibyteBound(line)))
                .isEqualTo(DispatchResult.AvailableFrom.WHOLE);
        assertThat(logs.asked).containsExactly(Long.MAX_VALUE);
    }

    // What follows feeds one stream through the count and sets it against the records engines wrote for it.

    /** The stream: this line, 13 000 times (52 000 bytes, past the 14 563 that 1 MiB x 2 keeps at worst). */
    private static final String LINE = "a<b\n";

    private static final int LINES = 13_000;

    /**
     * The record Docker 20.10 writes for {@link #LINE} with the worker's options, its timestamp at its
     * longest: 79 bytes, exactly what the count charges a line ({@code <} six, the newline two, the frame 69).
     */
    private static final String MEASURED_RECORD =
            "{\"log\":\"a\\u003cb\\n\",\"stream\":\"stdout\",\"time\":\"2026-11-28T02:55:23.702608551Z\"}\n";

    /**
     * The record Docker 20.10 wrote for the same line in a container whose log had the tag of Docker's
     * own example ({@code --log-opt tag="{{.ImageName}}|{{.Name}}|{{.ImageFullID}}|{{.FullID}}"}, as a
     * daemon's {@code log-opts} would give every container), read from its log file: 273 bytes.
     */
    private static final String TAGGED_RECORD = "{\"log\":\"a\\u003cb\\n\",\"stream\":\"stdout\",\"attrs\":{\"tag\":"
            + "\"sluice-agent:test|sluice-framing-probe|sha256:2da6ae19510511f0841876ae7401f7c5523b58dbdbaa467362a93dde35ede613"
            + "|2fa938029008500270bb3a481d24781e4ea0a3dc78e6fef964556c0b661cef69\"},"
            + "\"time\":\"2026-11-28T02:55:23.702608551Z\"}\n";

    /** The budget of 1 MiB x 2 files: the records that cannot rotate. */
    private static final long BUDGET = 1L << 20;

    /** What the collector counted for the stream. */
    private static long countedBound() {
        OutputCollector collector = new OutputCollector("stdout", 1 << 20, "/logs", "n", SecretMasker.NONE);
        byte[] lines = LINE.repeat(LINES).getBytes(StandardCharsets.UTF_8);
        for (int at = 0; at < lines.length; at += 1024) {
            collector.write(lines, at, Math.min(1024, lines.length - at));
        }
        return collector.jsonFileLogBound();
    }

    /**
     * Lines of the stream json-file still holds when each takes {@code record} bytes: it fills a file of
     * {@code max-size} until the file reaches it, then rotates, and keeps {@code max-file} files.
     */
    private static long linesKept(int record, long maxSize, int maxFiles) {
        long perFile = (maxSize + record - 1) / record;
        long current = (LINES - 1) / perFile;
        return LINES - Math.max(0, current - maxFiles + 1) * perFile;
    }

    @Test
    void theCountHoldsTheRecordsItAssumesAndSparesTheReadBack() {
        assertThat(MEASURED_RECORD).hasSize(79);
        // A record per line; and a frame more for the message that ends the stream (empty here) and for
        // each 16 KiB written, where a line that long would have been cut: 1 + 3 of them.
        assertThat(countedBound())
                .isEqualTo((long) LINES * MEASURED_RECORD.length() + (1 + LINES * LINE.length() / (16 << 10)) * 69)
                .isEqualTo(1_027_276)
                .isLessThanOrEqualTo(BUDGET);
        assertThat(linesKept(MEASURED_RECORD.length(), BUDGET, 2)).isEqualTo(LINES);

        Counted logs = new Counted(null, MEASURED);
        assertThat(holding(logs).atFinish("c", (long) LINES * LINE.length(), 0, countedBound()))
                .isEqualTo(DispatchResult.AvailableFrom.WHOLE);
        assertThat(logs.asked).isEmpty();
    }

    @Test
    void aTaggedLogIsReadBackThoughTheCountFitsAndItsStartIsWhereRotationLeftIt() {
        // The count assumes 79 bytes a line and fits the budget; the engine wrote 273 and rotated twice.
        assertThat(TAGGED_RECORD).hasSize(273);
        assertThat(countedBound()).isLessThanOrEqualTo(BUDGET);
        assertThat((long) LINES * TAGGED_RECORD.length()).isEqualTo(3_549_000);
        long kept = linesKept(TAGGED_RECORD.length(), BUDGET, 2);
        assertThat(kept).isEqualTo(5318); // 3841 lines a file; the first two files are gone

        LogSetup tagged = new LogSetup("Engine", "json-file", Set.of("max-size", "max-file", "compress", "tag"));
        Counted logs = new Counted(new ContainerLogs.Held(kept * LINE.length(), 0, true), tagged);
        assertThat(holding(logs).atFinish("c", (long) LINES * LINE.length(), 0, countedBound()))
                .isEqualTo(new DispatchResult.AvailableFrom(30_728, 0));
        assertThat(logs.asked).containsExactly(Long.MAX_VALUE);
    }

    /**
     * Logs whose records are not the ones counted: attributes from {@code labels} or {@code env}; Podman,
     * which writes its k8s-file records ({@code 2026-11-28T02:55:23.702608551+00:00 stdout F a<b}, another
     * time format and no JSON) under the name json-file and rotates them its own way; and a log whose
     * engine would not describe it.
     */
    static Stream<Arguments> setUpOtherwise() {
        return Stream.of(
                Arguments.of("labels", new LogSetup("Engine", "json-file", Set.of("max-size", "max-file", "labels"))),
                Arguments.of("env", new LogSetup("Engine", "json-file", Set.of("max-size", "max-file", "env"))),
                Arguments.of("podman", new LogSetup("Podman Engine", "json-file", Set.of("max-size"))),
                Arguments.of("undescribed", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("setUpOtherwise")
    void aLogSetUpOtherwiseIsReadBackHoweverSmall(String name, LogSetup setup) {
        // Even a line, which the worst case of json-file rules out, is read back: its held count is the answer.
        Counted whole = new Counted(new ContainerLogs.Held(4, 0, true), setup);
        assertThat(holding(whole).atFinish("c", 4, 0, 79 + 69)).isEqualTo(DispatchResult.AvailableFrom.WHOLE);
        assertThat(whole.asked).containsExactly(Long.MAX_VALUE);

        Counted rotated = new Counted(new ContainerLogs.Held(21_272, 0, true), setup);
        assertThat(holding(rotated).atFinish("c", (long) LINES * LINE.length(), 0, countedBound()))
                .isEqualTo(new DispatchResult.AvailableFrom(30_728, 0));

        // A recovered result's own counts prove nothing either, nor does a probe of a running dispatch.
        assertThat(holding(new Counted(null, setup)).atFinish("c", 4, 0, LogHolding.UNKNOWN))
                .isNull();
        LogHolding probed = holding(new Counted(new ContainerLogs.Held(1, 0, true), setup));
        if (setup == null) {
            assertThatThrownBy(() -> probed.probe("c")).isInstanceOf(ContainerException.class);
        } else {
            assertThat(probed.probe("c")).isNull();
        }
    }
}
