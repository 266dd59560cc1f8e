package dev.sluice.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.TestDocker;

class LogRetentionTest {

    private static LogRetention retention(String driver, long sizeMib, int files) {
        return new LogRetention(new TestDocker.Container(
                true,
                true,
                true,
                true,
                "/work",
                TestDocker.mib(1),
                TestDocker.mib(1),
                "65534",
                driver,
                TestDocker.mib(sizeMib),
                files,
                Duration.ofHours(1),
                500,
                TestDocker.mib(10 << 10),
                "/sluice/out"));
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
}
