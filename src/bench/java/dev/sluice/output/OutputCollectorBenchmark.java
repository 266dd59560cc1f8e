package dev.sluice.output;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
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
 * <li>{@code ingest/fits}: a fresh 4 MiB collector filled to its cap, buffer growth included;</li>
 * <li>{@code ingest/truncates}: a collector long past its cap, every chunk going through the tail ring;</li>
 * <li>{@code ingest/secrets}: as {@code truncates}, for a dispatch with two secrets, which the digest
 * masks as it goes, in every form a process prints them in (ADR 0030);</li>
 * <li>{@code ingest/secrets20}: the same with twenty secrets, some of them sharing letters with the
 * output (issue 14: at least half of {@code truncates});</li>
 * <li>{@code sha256}: the JDK's SHA-256 alone over the same chunks, the bound of every case.</li>
 * </ul>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class OutputCollectorBenchmark {

    static final int CHUNK = 1024;
    static final int CAP = 4 << 20;
    static final int CHUNKS_PER_CAP = CAP / CHUNK;

    /** Two API-key-like values, absent from the output, one starting with a letter it often has. */
    private static final SecretMasker SECRETS =
            new SecretMasker(List.of("agent-key-7f3a9c2e4b1d8f6a0c5e", "sk-live-51HbQ2eZvKYlo2C8Nq4xT0aB"), 8);

    private static final SecretMasker TWENTY_SECRETS = new SecretMasker(twentySecrets(), 8);

    private static final byte[] LINES = chunk();

    @State(Scope.Thread)
    public static class Collector {

        @Param({"fits", "truncates", "secrets", "secrets20"})
        public String mode;

        private OutputCollector collector;

        @Setup
        public void setUp() {
            collector = collector(
                    switch (mode) {
                        case "secrets" -> SECRETS;
                        case "secrets20" -> TWENTY_SECRETS;
                        default -> SecretMasker.NONE;
                    });
            for (int i = 0; i < 2 * CHUNKS_PER_CAP; i++) {
                collector.write(LINES, 0, CHUNK);
            }
        }

        OutputCollector target() {
            return "fits".equals(mode) ? collector(SecretMasker.NONE) : collector;
        }
    }

    @State(Scope.Thread)
    public static class Hash {

        final MessageDigest sha256;

        public Hash() {
            try {
                sha256 = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Benchmark
    @OperationsPerInvocation(CHUNKS_PER_CAP)
    public OutputCollector ingest(Collector state, Cpu cpu) {
        long start = Cpu.now();
        OutputCollector target = state.target();
        for (int i = 0; i < CHUNKS_PER_CAP; i++) {
            target.write(LINES, 0, CHUNK);
        }
        cpu.cpuNanos += Cpu.now() - start;
        return target;
    }

    @Benchmark
    @OperationsPerInvocation(CHUNKS_PER_CAP)
    public MessageDigest sha256(Hash hash, Cpu cpu) {
        long start = Cpu.now();
        for (int i = 0; i < CHUNKS_PER_CAP; i++) {
            hash.sha256.update(LINES, 0, CHUNK);
        }
        cpu.cpuNanos += Cpu.now() - start;
        return hash.sha256;
    }

    /**
     * The CPU time the measuring thread spent in the benchmark, reported per
     * second of the iteration: on a machine shared with other work, where the
     * thread gets only part of a core, the score divided by it is the
     * throughput per CPU-second (bench/collector.sh prints both). Read once per
     * 4 MiB, it costs a microsecond in milliseconds.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Cpu {

        private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

        public long cpuNanos;

        @Setup(Level.Iteration)
        public void reset() {
            cpuNanos = 0;
        }

        static long now() {
            return THREADS.getCurrentThreadCpuTime();
        }
    }

    private static OutputCollector collector(SecretMasker masker) {
        return new OutputCollector("stdout", CAP, "/v1/dispatches/bench/logs/stdout", "bench-nonce0", masker);
    }

    /**
     * Twenty values of the kinds dispatches carry: API keys, passwords with
     * symbols, a token with words from the output's lines, a two-line key.
     */
    private static List<String> twentySecrets() {
        List<String> secrets = new java.util.ArrayList<>();
        for (int i = 0; i < 16; i++) {
            secrets.add("sk-live-" + Integer.toHexString(0x5e1f3a7 * (i + 3)) + "QvX" + i + "ZpL9mN2bR4tY");
        }
        secrets.add("p@ss w/rd \"quoted\" & more");
        secrets.add("agent log line token h\u00e9llo-7Kq");
        secrets.add("-----BEGIN KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END KEY-----");
        secrets.add("ghp_16C7e42F292c6912E7710c838347Ae178B4a");
        return secrets;
    }

    private static byte[] chunk() {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; lines.length() < CHUNK; i++) {
            lines.append("agent log line ").append(i).append(": h\u00e9llo w\u00f6rld\n");
        }
        return lines.substring(0, CHUNK).getBytes(StandardCharsets.UTF_8);
    }
}
