package dev.sluice.run;

import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.ExpectedStream;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * Many dispatches, fast ones and huge ones: every byte counted, memory bounded.
 * Each result's streams are held byte for byte (digest length and SHA-256,
 * and the text when returned whole) to what its process printed, computed
 * here from the producer; a witness, when the result carries one, must say
 * complete or recovered and have counted what was written.
 *
 * <p>The fast-exiting flood and the huge stream are bounded for CI (50
 * containers, 128 MiB: twice what the heap may keep of it, so a worker that
 * held the stream fails as surely as with more); {@code -Dsluice.pack.heavy=true}
 * runs 200 and a gibibyte. The burst of a hundred stays
 * whole: it is more dispatches than run slots (64) and many more than the
 * engine changes in flight (8).
 */
@QuarkusTest
class DispatchLoadIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final boolean HEAVY = Boolean.getBoolean("sluice.pack.heavy");
    private static final int FAST_EXITING = HEAVY ? 200 : 50;
    /** Stdout of the huge dispatch: 128 MiB, 32 times its cap, for CI; a gibibyte with the heavy pack. */
    private static final long HUGE = HEAVY ? 1L << 30 : 128L << 20;

    private static final String THOUSAND_LINES;

    static {
        THOUSAND_LINES = IntStream.rangeClosed(1, 1000).mapToObj(i -> i + "\n").collect(Collectors.joining());
    }

    @Test
    void fastExitingContainersAreAllCapturedExactly() throws Exception {
        ExpectedStream printed = ExpectedStream.of(THOUSAND_LINES);
        Map<String, Integer> witnesses = new TreeMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        List<CompletableFuture<String>> ids = new ArrayList<>();
        for (int i = 0; i < FAST_EXITING; i++) {
            ids.add(CompletableFuture.supplyAsync(() -> submit(script("seq 1 1000; exit 3")), pool));
        }
        for (CompletableFuture<String> id : ids) {
            JsonPath r = awaitTerminal(id.get(), Duration.ofMinutes(5));
            assertExact(id.get(), r, "stdout", printed, witnesses);
            assertExact(id.get(), r, "stderr", ExpectedStream.EMPTY, witnesses);
            assertThat(r.getString("status")).isEqualTo("failed");
            assertThat(r.getInt("result.exitCode")).isEqualTo(3);
            assertThat(r.getString("result.stdout")).isEqualTo(THOUSAND_LINES);
            assertThat(r.getBoolean("result.logs.recovered")).isFalse();
        }
        pool.shutdown();
        System.out.println(FAST_EXITING + " fast-exiting containers, witness states of their streams: " + witnesses);
    }

    @Test
    void aHundredDispatchesSubmittedAtOnceAllFinish() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(100);
        List<CompletableFuture<String>> ids = IntStream.range(0, 100)
                .mapToObj(i -> CompletableFuture.supplyAsync(() -> submit(script("sleep 1; echo done " + i)), pool))
                .toList();
        Map<String, Integer> witnesses = new TreeMap<>();
        for (int i = 0; i < ids.size(); i++) {
            JsonPath r = awaitTerminal(ids.get(i).get(), Duration.ofMinutes(5));
            assertExact(ids.get(i).get(), r, "stdout", ExpectedStream.of("done " + i + "\n"), witnesses);
            assertExact(ids.get(i).get(), r, "stderr", ExpectedStream.EMPTY, witnesses);
            assertThat(r.getString("status")).isEqualTo("succeeded");
            assertThat(r.getString("result.stdout")).isEqualTo("done " + i + "\n");
        }
        pool.shutdown();
        System.out.println("100 dispatches at once, witness states of their streams: " + witnesses);
    }

    @Test
    void aHugeStdoutGivesABoundedResultWithExactCountsAndAFlatHeap() throws Exception {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long before = usedAfterGc(memory);

        Map<String, Object> body =
                new HashMap<>(script("line=$(head -c 1023 /dev/zero | tr '\\000' x); yes \"$line\" | head -c " + HUGE));
        ExpectedStream printed = ExpectedStream.repeatedLine("x".repeat(1023), HUGE);
        body.put("timeout", "PT5M");
        String id = submit(body);
        JsonPath r = awaitTerminal(id, Duration.ofMinutes(5));

        Map<String, Integer> witnesses = new TreeMap<>();
        assertExact(id, r, "stdout", printed, witnesses);
        assertExact(id, r, "stderr", ExpectedStream.EMPTY, witnesses);
        System.out.println(HUGE + " bytes of stdout, witness states of its streams: " + witnesses);
        assertThat(r.getString("status")).isEqualTo("succeeded");
        assertThat(r.getLong("result.stdoutOverflow.originalBytes")).isEqualTo(HUGE);
        long kept = r.getLong("result.stdoutOverflow.keptBytes");
        assertThat(kept).isLessThanOrEqualTo(4L << 20).isGreaterThan((4L << 20) - 16 * 1024);
        assertThat(r.getString("result.stdout").length()).isEqualTo((int) kept); // all ASCII
        assertThat(r.getString("result.stdout"))
                .contains("[... sluice " + r.getString("result.stdoutOverflow.nonce") + ": ")
                .contains(" of " + HUGE + " bytes of stdout omitted; full log: /v1/dispatches/" + id
                        + "/logs/stdout ...]");
        // The default rotation budget keeps up to a gibibyte of 1 KiB lines whole (ADR 0032), and the worker checked.
        assertThat(r.getBoolean("result.logs.possiblyRotated")).isFalse();
        assertThat(r.getLong("result.logs.availableFrom.stdout")).isZero();
        assertThat(r.getLong("result.stdoutDigest.bytes")).isEqualTo(HUGE);
        assertThat(r.getLong("result.stdoutDigest.lines"))
                .isEqualTo(printed.lines())
                .isEqualTo(HUGE / 1024);

        // What the worker kept after the stream went through it: the result, not the stream.
        long retained = usedAfterGc(memory) - before;
        assertThat(retained).isLessThan(64L << 20);
    }

    /**
     * The result's stream is exactly what its process printed: the digest's
     * length and SHA-256, and the text when it was returned whole. A witness
     * the result carries must say complete or recovered and have counted the
     * bytes written; a result without one is counted as {@code absent}, not
     * failed.
     */
    private static void assertExact(
            String id, JsonPath record, String stream, ExpectedStream printed, Map<String, Integer> witnesses) {
        JsonNode result = JSON.valueToTree(record.get("result"));
        ExpectedStream.Verdict v = printed.check(result, stream);
        witnesses.merge(stream + " " + v.witnessState(), 1, Integer::sum);
        assertThat(v.problems()).as("%s %s", id, v.describe()).isEmpty();
        assertThat(v.isExact()).as("%s %s", id, v.describe()).isTrue();
    }

    private static long usedAfterGc(MemoryMXBean memory) throws InterruptedException {
        System.gc();
        Thread.sleep(200);
        return memory.getHeapMemoryUsage().getUsed();
    }
}
