package dev.sluice.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;

import org.junit.jupiter.api.Test;

import io.quarkus.runtime.configuration.MemorySize;

class OutputLimitsTest {

    record Config(
            MemorySize stdoutCap,
            MemorySize stderrCap,
            MemorySize maxStdoutCap,
            MemorySize maxStderrCap,
            MemorySize maxJsonDocument)
            implements OutputConfig {
        Config(MemorySize stdoutCap, MemorySize stderrCap, MemorySize maxStdoutCap, MemorySize maxStderrCap) {
            this(stdoutCap, stderrCap, maxStdoutCap, maxStderrCap, bytes(64 << 20));
        }
    }

    private static MemorySize bytes(long n) {
        return new MemorySize(BigInteger.valueOf(n));
    }

    @Test
    void defaultsAreFourMebibytesAndAQuarterOfOne() {
        OutputLimits limits =
                OutputLimits.from(new Config(bytes(4 << 20), bytes(256 << 10), bytes(16 << 20), bytes(1 << 20)));
        assertThat(limits).isEqualTo(new OutputLimits(4 << 20, 256 << 10, 16 << 20, 1 << 20, 64 << 20));
    }

    @Test
    void aCapSmallerThanTheMarkerIsRefusedNamingTheSetting() {
        assertThatThrownBy(() ->
                        OutputLimits.from(new Config(bytes(4 << 20), bytes(100), bytes(16 << 20), bytes(1 << 20))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sluice.output.stderr-cap is 100 bytes")
                .hasMessageContaining("at least 1024 bytes");
    }

    @Test
    void aDefaultAboveItsMaximumIsRefused() {
        assertThatThrownBy(() -> OutputLimits.from(
                        new Config(bytes(32 << 20), bytes(256 << 10), bytes(16 << 20), bytes(1 << 20))))
                .hasMessageContaining("sluice.output.stdout-cap (33554432 bytes) exceeds sluice.output.max-stdout-cap");
    }
}
