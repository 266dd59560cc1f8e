package dev.sluice.bench;

import static dev.sluice.bench.Measure.f;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;

/**
 * A dispatch group of N beside N single dispatches (ADR 0028), on one packaged
 * worker and one receiver: every member writes the same ~2 KB report. Sides
 * alternate within each round, after one uncounted round: N singles with full
 * callbacks, N singles with digest callbacks, and one group of N with the
 * default budget. For each: wall time from the first POST to the last callback
 * the parent needs (every result, or the group's final), the bytes and POSTs
 * the receiver got (one per webhook-id), and the worker's CPU seconds. Run by
 * {@code bench/run.sh groups [members] [rounds]}.
 */
public final class GroupOverhead {

    private static final ObjectMapper JSON = new ObjectMapper();

    private record Run(double seconds, long bytes, int posts, double cpu) {}

    private interface Side {
        Run run() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int members = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Map<String, String> env =
                WorkerProcess.baseEnvironment(WorkerProcess.freshDataDir("bench-groups"), "bench-groups");
        env.put("SLUICE_DISPATCH_DEFAULT_MEMORY", "64M");
        env.put("QUARKUS_LOG_LEVEL", "WARN");
        try (Receiver r = Receiver.on("127.0.0.1");
                WorkerProcess w = WorkerProcess.startAsShipped(env)) {
            GroupOverhead bench = new GroupOverhead(w, r, members);
            Map<String, Side> sides = new LinkedHashMap<>();
            sides.put(members + " single dispatches, full callbacks", () -> bench.singles("full"));
            sides.put(members + " single dispatches, digest callbacks", () -> bench.singles("digest"));
            sides.put("one group of " + members + ", default budget", bench::group);
            Map<String, List<Run>> runs = new LinkedHashMap<>();
            for (int round = 0; round <= rounds; round++) {
                for (Map.Entry<String, Side> side : sides.entrySet()) {
                    Run run = side.getValue().run();
                    System.out.printf(
                            "round %d, %s: %s s, %d bytes in %d POSTs, %s CPU s%n",
                            round, side.getKey(), f(run.seconds()), run.bytes(), run.posts(), f(run.cpu()));
                    if (round > 0) { // round 0 warms the worker up
                        runs.computeIfAbsent(side.getKey(), k -> new ArrayList<>())
                                .add(run);
                    }
                }
            }
            System.out.println(
                    "| side | wall time to the last callback needed (median) | callback bytes | callback POSTs"
                            + " | worker CPU s (median) |");
            System.out.println("| --- | --- | --- | --- | --- |");
            runs.forEach((side, list) -> System.out.printf(
                    "| %s | %s s | %s | %s | %s |%n",
                    side,
                    f(Measure.median(list.stream().map(Run::seconds).toList())),
                    f(Measure.median(
                            list.stream().map(run -> (double) run.bytes()).toList())),
                    f(Measure.median(
                            list.stream().map(run -> (double) run.posts()).toList())),
                    f(Measure.median(list.stream().map(Run::cpu).toList()))));
        }
    }

    private final WorkerProcess worker;
    private final Receiver receiver;
    private final int members;
    private int batch;

    private GroupOverhead(WorkerProcess worker, Receiver receiver, int members) {
        this.worker = worker;
        this.receiver = receiver;
        this.members = members;
    }

    /** The member every side runs: a ~2 KB report, as DispatchGroupIT's agents write. */
    private Map<String, Object> member(int n) throws Exception {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put(
                "summary",
                "Reviewed module " + n + ": the parser handles empty and oversized input, the retry "
                        + "loop backs off as documented, and two error paths lose their cause; nothing blocks a release.");
        report.put(
                "keyFindings",
                IntStream.range(0, 9)
                        .mapToObj(i -> "Finding " + i + " of module " + n + ": the handler at line " + (100 + i * 17)
                                + " swallows an exception and returns an empty list, so callers cannot tell a "
                                + "failure from no data; log and rethrow.")
                        .toList());
        report.put("confidence", "high");
        report.put("verdict", "approve");
        report.put(
                "filesChanged",
                IntStream.range(0, 6)
                        .mapToObj(i -> "src/main/java/module" + n + "/Part" + i + ".java")
                        .toList());
        report.put("stats", Map.of("testsRun", 120 + n, "failures", 0, "coverage", "81%"));
        Map<String, Object> member =
                new HashMap<>(WorkerClient.script("printf '%s' \"$REPORT\" > /sluice/out/report.json; echo done"));
        member.put("env", Map.of("REPORT", JSON.writeValueAsString(report)));
        return member;
    }

    private Run singles(String mode) throws Exception {
        String path = "/singles-" + (++batch);
        double cpu = Measure.cpuSeconds(worker.pid());
        Instant start = Instant.now();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < members; i++) {
            Map<String, Object> request = member(i);
            request.put("callbackUrl", receiver.url(path));
            request.put("callbackMode", mode);
            ids.add(worker.submit(request));
        }
        return await(start, cpu, path, got -> ids.stream().allMatch(id -> got.containsKey("msg_" + id)));
    }

    private Run group() throws Exception {
        String path = "/group-" + (++batch);
        double cpu = Measure.cpuSeconds(worker.pid());
        Instant start = Instant.now();
        List<Map<String, Object>> dispatches = new ArrayList<>();
        for (int i = 0; i < members; i++) {
            dispatches.add(member(i));
        }
        var answer = worker.post(
                "/v1/dispatch-groups",
                JSON.writeValueAsString(Map.of("dispatches", dispatches, "callbackUrl", receiver.url(path))));
        if (answer.statusCode() != 202) {
            throw new IllegalStateException("group refused: " + answer.body());
        }
        String id = JSON.readTree(answer.body()).path("id").asText();
        return await(start, cpu, path, got -> got.containsKey("msg_" + id + "_final"));
    }

    /** Waits until the callbacks to {@code path} hold what {@code done} needs; one body per webhook-id. */
    private Run await(Instant start, double cpuBefore, String path, Predicate<Map<String, byte[]>> done)
            throws InterruptedException {
        Instant deadline = start.plus(Duration.ofMinutes(10));
        while (Instant.now().isBefore(deadline)) {
            Map<String, byte[]> got = new LinkedHashMap<>();
            for (Receiver.Request req : receiver.requests()) {
                if (req.path().equals(path)) {
                    got.putIfAbsent(req.header("webhook-id"), req.body());
                }
            }
            if (done.test(got)) {
                double seconds = Duration.between(start, Instant.now()).toMillis() / 1000.0;
                long bytes = got.values().stream().mapToLong(b -> b.length).sum();
                return new Run(seconds, bytes, got.size(), Measure.cpuSeconds(worker.pid()) - cpuBefore);
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("callbacks to " + path + " did not all arrive within 10 minutes");
    }
}
