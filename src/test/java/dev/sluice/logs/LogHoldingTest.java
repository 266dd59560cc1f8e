package dev.sluice.logs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.sluice.container.ContainerException;
import dev.sluice.container.ContainerLogs;
import dev.sluice.container.LogRetention;
import dev.sluice.output.OutputCollector;
import dev.sluice.output.SecretMasker;
import dev.sluice.record.DispatchResult;
import dev.sluice.testsupport.TestDocker;

/** When the worker reads the log back to place its start, and what it makes of the count (ADR 0032). */
class LogHoldingTest {

    /** 1 MiB x 2 files of json-file: at most 14563 bytes of output can never rotate (1 MiB / 72). */
    private static final long SAFE = (1L << 20) / 72;

    /** A log returning less than one full file of records, short by a record, lost nothing. */
    private static final long PROVEN = ((1L << 20) - (128 << 10)) / 72;

    /** One file of 1 MiB is what can never rotate with two files: a byte more of records may have. */
    private static final long TOO_MANY_RECORDS = (1L << 20) + 1;

    /** The runtime's answer to a count, and every count asked for. */
    private static final class Counted extends ContainerLogs {
        private final Held answer;
        private final List<Long> asked = new ArrayList<>();

        Counted(Held answer) {
            super(null);
            this.answer = answer;
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
}
