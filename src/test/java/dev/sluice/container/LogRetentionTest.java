package dev.sluice.container;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.TestDocker;

class LogRetentionTest {

    private static LogRetention retention(String driver, long sizeMib, int files) {
        return new LogRetention(TestDocker.containerConfig(driver, sizeMib, files));
    }

    @Test
    void localDriverIsSafeUpToItsWorstCaseExpansion() {
        LogRetention r = retention("local", 32, 4); // 96 MiB kept for sure; 9 bytes on disk per byte at worst
        long safe = (3L * 32 << 20) / 9;
        assertThat(r.possiblyRotated(safe)).isFalse();
        assertThat(r.possiblyRotated(safe + 1)).isTrue();
    }

    @Test
    void jsonFileExpandsMore() {
        assertThat(retention("json-file", 32, 4).possiblyRotated(2 << 20)).isTrue();
        assertThat(retention("json-file", 32, 4).possiblyRotated(1 << 20)).isFalse();
    }

    @Test
    void unknownDriversAndSingleFilesAlwaysMayRotate() {
        assertThat(retention("journald", 32, 4).possiblyRotated(0)).isTrue();
        assertThat(retention("local", 32, 1).possiblyRotated(1)).isTrue();
    }

    @Test
    void aLogReturningLessThanFullFilesCanHoldLostNothing() {
        // 3 full files of 32 MiB, each short by at most one record, at 72 bytes of record per byte at worst.
        LogRetention r = retention("json-file", 32, 4);
        assertThat(r.provenWholeBytes()).isEqualTo(3 * ((32L << 20) - LogRetention.RECORD_MARGIN) / 72);
        assertThat(r.provenWholeBytes()).isLessThan((3L * 32 << 20) / 72);
        assertThat(retention("journald", 32, 4).provenWholeBytes()).isEqualTo(-1);
        assertThat(retention("local", 32, 1).provenWholeBytes()).isZero();
    }

    @Test
    void theDefaultsKeepAGibibyteOfHundredByteLines() {
        // A json-file record of a 100-byte line takes about 170 bytes: 1 GiB of such lines is about 1.7 GiB of
        // records, and 15 full files of 128 MiB hold 1.875 GiB (measured in ADR 0032).
        long records = (1L << 30) / 100 * 170;
        assertThat(15L * (128L << 20)).isGreaterThan(records);
    }

    @Test
    void jsonFileRecordsFitInAllFilesButTheCurrentOne() {
        LogRetention r = retention("json-file", 32, 4);
        assertThat(r.recordsFit(3L * 32 << 20)).isTrue();
        assertThat(r.recordsFit((3L * 32 << 20) + 1)).isFalse();
        // Other drivers write other records: the json-file count says nothing of them.
        assertThat(retention("local", 32, 4).recordsFit(0)).isFalse();
        assertThat(retention("journald", 32, 4).recordsFit(0)).isFalse();
    }
}
