package dev.sluice.testsupport;

import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import dev.sluice.actions.ApiConfig;
import io.quarkus.runtime.configuration.MemorySize;

/** The API's settings with the shipped defaults, and the access settings a test names. */
public record ApiSettings(Optional<List<String>> tokens, Optional<List<String>> operatorTokens, boolean anonymous)
        implements ApiConfig {

    public static ApiSettings of(List<String> tokens, List<String> operatorTokens) {
        return new ApiSettings(Optional.of(tokens), Optional.of(operatorTokens), false);
    }

    @Override
    public MemorySize maxRequestSize() {
        return new MemorySize(BigInteger.valueOf(2 << 20));
    }

    @Override
    public MemorySize maxDecodingBytes() {
        return new MemorySize(BigInteger.valueOf(32 << 20));
    }

    @Override
    public MemorySize maxDecodingBytesPerTenant() {
        return new MemorySize(BigInteger.valueOf(16 << 20));
    }

    @Override
    public int defaultPageSize() {
        return 20;
    }

    @Override
    public int maxPageSize() {
        return 100;
    }

    @Override
    public MemorySize defaultLogRange() {
        return new MemorySize(BigInteger.valueOf(1 << 20));
    }

    @Override
    public MemorySize maxLogRange() {
        return new MemorySize(BigInteger.valueOf(16 << 20));
    }

    @Override
    public int maxLogReads() {
        return 32;
    }

    @Override
    public Duration logWriteTimeout() {
        return Duration.ofSeconds(30);
    }

    @Override
    public int maxLogReadsPerTenant() {
        return 16;
    }

    @Override
    public int maxRelayedReads() {
        return 128;
    }

    @Override
    public int maxRelayedReadsPerTenant() {
        return 32;
    }
}
