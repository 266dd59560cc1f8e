package dev.sluice.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.sluice.container.sandbox.ContainerConfig;
import dev.sluice.testsupport.TestDocker;
import io.quarkus.runtime.configuration.DurationConverter;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.runtime.configuration.MemorySizeConverter;
import io.smallrye.config.SmallRyeConfigBuilder;

class LogRetentionTest {

    /** A container's log as Docker describes it when only the worker's options apply. */
    static final LogSetup MEASURED = new LogSetup("Engine", "json-file", Set.of("max-size", "max-file", "compress"));

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

    /** The settings as the worker reads them when nobody sets any: the mapping's own defaults. */
    private static ContainerConfig defaults() {
        return new SmallRyeConfigBuilder()
                .withConverter(MemorySize.class, 100, new MemorySizeConverter())
                .withConverter(Duration.class, 100, new DurationConverter())
                .withMapping(ContainerConfig.class)
                .build()
                .getConfigMapping(ContainerConfig.class);
    }

    /** As logMaxSize's Javadoc and docs/configuration.md promise, and ADR 0032 measured. */
    @Test
    void theDefaultsKeepAGibibyteOfHundredByteLines() {
        // A json-file record of a 100-byte line: its 99 bytes, the newline escaped as two, and the frame
        // around them (the longest timestamp, 69 bytes in all): 170 bytes, about 1.7 GiB for 1 GiB of lines.
        long lines = (1L << 30) / 100;
        long records = lines * (99 + 2 + 69);
        ContainerConfig config = defaults();
        assertThat(new LogRetention(config).recordsFit(records)).isTrue();
        // Not by a margin a smaller default would keep too: half the files would not hold them.
        assertThat(new LogRetention(TestDocker.containerConfig(
                                config.logDriver(), config.logMaxSize().asLongValue() >> 20, config.logMaxFiles() / 2))
                        .recordsFit(records))
                .isFalse();
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

    @Test
    void aLogSetUpAsMeasuredKeepsEveryAnswer() {
        LogRetention r = retention("json-file", 32, 4);
        LogRetention told = r.forLog(MEASURED);
        assertThat(told.possiblyRotated((3L * 32 << 20) / 72)).isFalse();
        assertThat(told.recordsFit(3L * 32 << 20)).isTrue();
        assertThat(told.provenWholeBytes()).isEqualTo(3 * ((32L << 20) - LogRetention.RECORD_MARGIN) / 72);
        // Docker leaves out the options nobody set.
        assertThat(r.forLog(new LogSetup("Engine", "json-file", Set.of("max-size"))))
                .isSameAs(r);
    }

    static Set<LogSetup> otherwise() {
        return Set.of(
                // Each of json-file's options that adds attrs to every record, as a daemon's log-opts would.
                new LogSetup("Engine", "json-file", Set.of("max-size", "max-file", "labels")),
                new LogSetup("Engine", "json-file", Set.of("max-size", "max-file", "labels-regex")),
                new LogSetup("Engine", "json-file", Set.of("max-size", "max-file", "env")),
                new LogSetup("Engine", "json-file", Set.of("max-size", "max-file", "env-regex")),
                new LogSetup("Engine", "json-file", Set.of("max-size", "max-file", "tag")),
                // An option this worker does not know of.
                new LogSetup("Engine", "json-file", Set.of("max-size", "max-file", "mode")),
                // Podman, whose json-file is its k8s-file; an engine that names nothing; another driver.
                new LogSetup("Podman Engine", "json-file", Set.of("max-size")),
                new LogSetup("", "json-file", Set.of("max-size")),
                new LogSetup("Engine", "local", Set.of("max-size")),
                new LogSetup("Engine", "", Set.of()));
    }

    @ParameterizedTest
    @MethodSource("otherwise")
    void aLogSetUpOtherwiseCanTellNothing(LogSetup setup) {
        LogSetupTest.assertUntold(retention("json-file", 32, 4).forLog(setup));
    }
}
