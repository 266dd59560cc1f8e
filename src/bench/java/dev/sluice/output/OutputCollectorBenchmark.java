package dev.sluice.output;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Collector ingest in 1 KiB chunks, the size docker-java hands over. One
 * operation is one chunk, so bytes per second is operations per second times
 * 1024 (bench/collector.sh prints it). Every case digests each chunk as a
 * dispatch does (SHA-256 and newlines, ADR 0025).
 *
 * <ul>
 * <li>{@code fits}: a fresh 4 MiB collector filled to its cap, buffer growth included;</li>
 * <li>{@code truncates}: a collector long past its cap, every chunk going through the tail ring;</li>
 * <li>{@code secrets}: as {@code truncates}, for a dispatch with two secrets, which the digest
 * masks as it goes.</li>
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class OutputCollectorBenchmark {

    static final int CHUNK = 1024;
    static final int CAP = 4 << 20;
    static final int CHUNKS_PER_CAP = CAP / CHUNK;

    @Param({"fits", "truncates", "secrets"})
    public String mode;

    private final byte[] chunk = chunk();
    private OutputCollector collector;

    @Setup
    public void setUp() {
        collector = collector("secrets".equals(mode) ? SECRETS : SecretMasker.NONE);
        for (int i = 0; i < 2 * CHUNKS_PER_CAP; i++) {
            collector.write(chunk, 0, CHUNK);
        }
    }

    @Benchmark
    @OperationsPerInvocation(CHUNKS_PER_CAP)
    public OutputCollector ingest() {
        OutputCollector target = "fits".equals(mode) ? collector(SecretMasker.NONE) : collector;
        for (int i = 0; i < CHUNKS_PER_CAP; i++) {
            target.write(chunk, 0, CHUNK);
        }
        return target;
    }

    /** Two API-key-like values, absent from the output, one starting with a letter it often has. */
    private static final SecretMasker SECRETS =
            new SecretMasker(List.of("agent-key-7f3a9c2e4b1d8f6a0c5e", "sk-live-51HbQ2eZvKYlo2C8Nq4xT0aB"));

    private static OutputCollector collector(SecretMasker masker) {
        return new OutputCollector("stdout", CAP, "/v1/dispatches/bench/logs/stdout", "bench-nonce0", masker);
    }

    private static byte[] chunk() {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; lines.length() < CHUNK; i++) {
            lines.append("agent log line ").append(i).append(": h\u00e9llo w\u00f6rld\n");
        }
        return lines.substring(0, CHUNK).getBytes(StandardCharsets.UTF_8);
    }
}
