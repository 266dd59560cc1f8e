package dev.sluice.output;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/** The caps a worker runs with when nothing is configured: the contract's numbers, read through configuration. */
@QuarkusTest
class OutputDefaultsTest {

    @Inject
    OutputLimits limits;

    @Test
    void stdoutDefaultsToFourMebibytesAndStderrToAQuarterOfOne() {
        assertThat(limits.stdoutCap()).isEqualTo(4 << 20);
        assertThat(limits.stderrCap()).isEqualTo(256 << 10);
    }

    @Test
    void aDispatchMayAskForUpToSixteenMebibytesOfStdoutAndOneOfStderr() {
        assertThat(limits.maxStdoutCap()).isEqualTo(16 << 20);
        assertThat(limits.maxStderrCap()).isEqualTo(1 << 20);
    }
}
