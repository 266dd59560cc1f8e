package dev.sluice.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.sluice.io.LogRange;
import dev.sluice.record.RequestRefused;

/**
 * Log range reads within the worker's slots and each tenant's share (ADR
 * 0054, 0073): one tenant's open reads never leave another without a slot.
 */
class LogReadsTest {

    private final LogReads reads = new LogReads(4, 2);

    @Test
    void aTenantHoldingItsShareLeavesTheOthersTheirs() {
        List<LogRange> noisy = new ArrayList<>();
        noisy.add(reads.open("noisy", LogReadsTest::range));
        noisy.add(reads.open("noisy", LogReadsTest::range));

        assertThatThrownBy(() -> reads.open("noisy", LogReadsTest::range))
                .isInstanceOfSatisfying(RequestRefused.class, e -> {
                    assertThat(e.reason()).isEqualTo(RequestRefused.Reason.TOO_MANY_LOG_READS);
                    assertThat(e.getMessage()).contains("sluice.api.max-log-reads-per-tenant");
                });
        LogRange quiet = reads.open("quiet", LogReadsTest::range);
        assertThat(quiet.length()).isEqualTo(3);
        assertThat(reads.available("quiet")).isEqualTo(1);

        noisy.get(0).close();
        assertThat(reads.available("noisy")).isEqualTo(1);
    }

    @Test
    void theWorkersSlotsBoundEveryTenantTogether() {
        reads.open("a", LogReadsTest::range);
        reads.open("b", LogReadsTest::range);
        reads.open("c", LogReadsTest::range);
        reads.open("d", LogReadsTest::range);

        assertThatThrownBy(() -> reads.open("e", LogReadsTest::range))
                .isInstanceOfSatisfying(
                        RequestRefused.class,
                        e -> assertThat(e.getMessage())
                                .contains("sluice.api.max-log-reads ")
                                .doesNotContain("per-tenant"));
    }

    @Test
    void aReadThatFailsToOpenGivesItsSlotBack() {
        assertThatThrownBy(() -> reads.open("noisy", () -> {
                    throw new RequestRefused(RequestRefused.Reason.LOG_GONE, "gone");
                }))
                .isInstanceOf(RequestRefused.class);
        assertThat(reads.available("noisy")).isEqualTo(2);
    }

    @Test
    void aRangeWrittenOrClosedTwiceGivesItsSlotBackOnce() throws Exception {
        LogRange range = reads.open("noisy", LogReadsTest::range);
        range.writeTo(java.io.OutputStream.nullOutputStream());
        range.close();
        assertThat(reads.available("noisy")).isEqualTo(2);
        assertThat(reads.available("quiet")).isEqualTo(2);
    }

    private static LogRange range() {
        return new LogRange(new byte[] {1, 2, 3}, 0, true);
    }
}
