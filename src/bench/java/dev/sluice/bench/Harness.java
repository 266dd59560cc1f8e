package dev.sluice.bench;

import static dev.sluice.bench.Measure.f;
import static dev.sluice.bench.Measure.signed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.engine.DockerConfig;
import dev.sluice.testsupport.ExpectedStream;
import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.TestDocker;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;

/**
 * Sluice beside the Docker CLI, on the same machine, in the same run: the
 * figures of BENCHMARKS.md (P1-P3, P5-P11; P4 is the collector's JMH
 * benchmark). Runs of the two sides alternate; medians and ratios are
 * reported. {@code bench/run.sh} runs it in full; {@link Sizes#SMOKE} keeps a
 * run to seconds so the suite proves the harness still works.
 */
public final class Harness {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String IMAGE = TestDocker.AGENT_IMAGE;

    /**
     * How big each scenario runs, and what share of each settling pause (the
     * wait before an idle reading, or for output to be in) it takes.
     */
    public record Sizes(
            String name,
            long floodBytes,
            int runs,
            int overheadRuns,
            int concurrent,
            int completeness,
            int streams,
            int controlCalls,
            int floodDispatches,
            long floodStderrBytes,
            int smallDispatches,
            int burst,
            double settling) {

        public static final Sizes FULL =
                new Sizes("full", 1L << 30, 3, 50, 50, 1000, 200, 50, 10, 64L << 20, 100, 50, 1.0);
        /**
         * Each scenario once, as small as still takes its code path, with the
         * correctness figures (P8's count, every stream held to what was
         * printed) at sizes that still test something: floods of 8 MiB, twice
         * the result's stdout cap, so each is truncated and counted; P8's ten
         * containers submitted at once. Where a figure is only read, not
         * judged, less suffices: two overhead runs (P3) and four small
         * dispatches (P10) take the same code as fifty and a hundred, and a
         * tenth of each settling pause leaves the idle readings taken, as the
         * suite needs them, without waiting for memory that no one judges to
         * settle.
         */
        public static final Sizes SMOKE = new Sizes("smoke", 8L << 20, 1, 2, 4, 10, 8, 5, 2, 1L << 20, 4, 4, 0.1);
    }

    private interface Scenario {
        void run() throws Exception;
    }

    /** One figure: what Sluice measured, its baseline, and the target. */
    public record Row(
            String id, String measure, String sluice, String baseline, String ratio, String target, boolean met) {

        String markdown() {
            return "| " + id + " | " + measure + " | " + sluice + " | " + baseline + " | " + ratio + " | " + target
                    + " | " + (target.isEmpty() ? "" : met ? "met" : "**not met**") + " |";
        }
    }

    private final Sizes sizes;
    /**
     * Whether a scenario runs each of its variants (log drivers, producers,
     * engine-change limits, repeated starts), or one: a full run always does;
     * the suite's smoke run takes one of each, which keeps every scenario's code
     * path running at a fraction of the worker starts, unless
     * {@code -Dsluice.bench.every-variant=true} asks for all of them.
     */
    private final boolean everyVariant;

    /**
     * Whether the scenarios share one worker where they can: in a smoke run,
     * every scenario that needs a worker with the default settings (json-file,
     * the shipped JVM) takes P6's, once P6 has read its start-up and idle
     * memory from it; only those that measure a fresh start (P3's first
     * dispatch) or need other settings (another log driver, engine-change
     * limit or heap) start their own. Nothing a smoke run asserts depends on a
     * worker being new: each scenario waits on its own dispatches only. A
     * full run starts a worker per scenario, so no figure carries another's
     * memory or compiled code.
     */
    private final boolean shareWorker;

    private final List<Row> rows = new ArrayList<>();

    /** The worker the scenarios share, when they do (see {@link #shareWorker}): P6's. */
    private WorkerProcess shared;

    private Harness(Sizes sizes) {
        this.sizes = sizes;
        this.everyVariant = sizes != Sizes.SMOKE || Boolean.getBoolean("sluice.bench.every-variant");
        this.shareWorker = sizes == Sizes.SMOKE;
    }

    /** All of {@code variants}, or the first only (see {@link #everyVariant}). */
    private <T> List<T> variants(List<T> variants) {
        return everyVariant ? variants : variants.subList(0, 1);
    }

    public static void main(String[] args) throws Exception {
        Sizes sizes = Arrays.asList(args).contains("--smoke") ? Sizes.SMOKE : Sizes.FULL;
        Set<String> only = Arrays.stream(args).filter(a -> a.matches("P\\d+")).collect(Collectors.toSet());
        List<Row> rows = run(sizes, only);
        String table = table(rows);
        System.out.println(table);
        Files.writeString(Path.of("target/bench-report.md"), table);
    }

    /** Runs the chosen scenarios (all when {@code only} is empty). */
    public static List<Row> run(Sizes sizes, Set<String> only) throws Exception {
        Harness h = new Harness(sizes);
        Map<String, Scenario> scenarios = new LinkedHashMap<>();
        scenarios.put("P6", h::startup);
        scenarios.put("P3", h::overhead);
        scenarios.put("P1", h::throughput);
        scenarios.put("P5", h::concurrency);
        scenarios.put("P2", h::floods);
        scenarios.put("P8", h::completeness);
        scenarios.put("P9", h::streamsVersusControl);
        scenarios.put("P10", h::smallDispatches);
        scenarios.put("P11", h::burst);
        try {
            for (Map.Entry<String, Scenario> s : scenarios.entrySet()) {
                if (only.isEmpty() || only.contains(s.getKey())) {
                    System.out.println("== " + s.getKey());
                    long start = System.nanoTime();
                    s.getValue().run();
                    System.out.println("== " + s.getKey() + " took " + f((System.nanoTime() - start) / 1e9) + " s");
                }
            }
        } finally {
            if (h.shared != null) {
                h.shared.close();
            }
        }
        return h.rows;
    }

    static String table(List<Row> rows) {
        StringBuilder t = new StringBuilder("| # | measure | Sluice | Docker CLI | ratio | target | |\n"
                + "| --- | --- | --- | --- | --- | --- | --- |\n");
        rows.forEach(r -> t.append(r.markdown()).append('\n'));
        return t.toString();
    }

    private void row(
            String id, String measure, String sluice, String baseline, String ratio, String target, boolean met) {
        Row r = new Row(id, measure, sluice, baseline, ratio, target, met);
        rows.add(r);
        System.out.println(r.markdown());
    }

    // ---------------------------------------------------------------- workers

    private Map<String, String> env(String logDriver) {
        // A store of its own per worker: no worker takes up what an earlier scenario left.
        Map<String, String> env = WorkerProcess.baseEnvironment(WorkerProcess.freshDataDir("bench"), "bench");
        env.put("SLUICE_CONTAINER_LOG_DRIVER", logDriver);
        env.put("SLUICE_DISPATCH_MAX_RUNNING", "256");
        env.put("SLUICE_DISPATCH_DEFAULT_MEMORY", "256M");
        env.put("SLUICE_DISPATCH_MAX_TIMEOUT", "6h");
        env.put("QUARKUS_LOG_LEVEL", "WARN");
        // Reconciliation as often as shipped, not every 2 s as the tests want it.
        env.remove("SLUICE_WORKER_RECONCILE_INTERVAL");
        return env;
    }

    private WorkerProcess worker(String logDriver, String... jvm) {
        // The JVM settings the worker ships with (deploy/jvm.options), unless a scenario names its own.
        return jvm.length == 0
                ? WorkerProcess.startAsShipped(env(logDriver))
                : WorkerProcess.start(env(logDriver), jvm);
    }

    /**
     * A worker for one scenario: with the default settings ({@code json-file})
     * the shared one when the scenarios share (started here if P6 did not run),
     * otherwise one of its own, closed with the lease.
     */
    private Lease lease(String logDriver) {
        if (!shareWorker || !logDriver.equals("json-file")) {
            return new Lease(worker(logDriver), true);
        }
        if (shared == null || !shared.alive()) {
            shared = worker("json-file");
        }
        return new Lease(shared, false);
    }

    /** A scenario's worker, closed when the scenario ends unless it is the shared one. */
    private record Lease(WorkerProcess worker, boolean own) implements AutoCloseable {
        @Override
        public void close() {
            if (own) {
                worker.close();
            }
        }
    }

    /** Waits {@code full} in a full run, {@link Sizes#settling} of it otherwise. */
    private void settle(long fullMillis) throws InterruptedException {
        Thread.sleep(Math.round(fullMillis * sizes.settling()));
    }

    /** Submits and returns the id; the result arrives at the receiver. */
    static String submit(WorkerClient w, Receiver r, String script) throws IOException {
        Map<String, Object> request = new HashMap<>(WorkerClient.script(script));
        request.put("callbackUrl", r.url("/bench"));
        request.put("timeout", "PT2H");
        return w.submit(request);
    }

    /** Waits for a dispatch's callback and returns when it arrived and the result it carried. */
    static Receiver.Request awaitCallback(Receiver r, String id, Duration within) throws InterruptedException {
        Instant deadline = Instant.now().plus(within);
        String webhookId = "msg_" + id;
        while (Instant.now().isBefore(deadline)) {
            for (Receiver.Request req : r.requests()) {
                if (webhookId.equals(req.header("webhook-id"))) {
                    return req;
                }
            }
            Thread.sleep(2);
        }
        throw new IllegalStateException("no callback for " + id + " within " + within);
    }

    static JsonNode result(Receiver.Request callback) throws IOException {
        return JSON.readTree(callback.body());
    }

    /** One {@code docker run}: its wall time, and the CPU its CLI process used. */
    record CliRun(double seconds, double cpuSeconds) {}

    /** {@code docker run --rm} of the same image and producer, output discarded. */
    static CliRun cli(String logDriver, String script) throws IOException, InterruptedException {
        // bash's times prints the CPU its children used: here, the docker CLI.
        String run = "docker run --rm --network none --log-driver " + logDriver + " " + IMAGE + " sh -c '"
                + script.replace("'", "'\\''") + "' >/dev/null 2>&1 || exit 1; times";
        long start = System.nanoTime();
        Process p = new ProcessBuilder("bash", "-c", run)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String times = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
        if (!p.waitFor(2, TimeUnit.HOURS) || p.exitValue() != 0) {
            throw new IllegalStateException("docker run failed: " + script);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        // Second line: children's user and system time, as "0m1.234s 0m0.567s".
        String[] children =
                times.lines().skip(1).findFirst().orElse("0m0s 0m0s").trim().split("\\s+");
        return new CliRun(seconds, minutesSeconds(children[0]) + minutesSeconds(children[1]));
    }

    private static double minutesSeconds(String time) {
        int m = time.indexOf('m');
        return Double.parseDouble(time.substring(0, m)) * 60
                + Double.parseDouble(time.substring(m + 1, time.length() - 1));
    }

    /** The producer both sides run: {@code bytes} of printable output, in 64 KiB blocks or in 1 KiB lines. */
    static String flood(long bytes, boolean lines) {
        // Both producers write printable bytes: json-file escapes NUL six-fold, which would measure the escaping.
        return lines
                ? "line=$(head -c 1023 /dev/zero | tr '\\000' x); yes \"$line\" | head -c " + bytes
                : "dd if=/dev/zero bs=65536 count=" + bytes / 65536 + " 2>/dev/null | tr '\\000' x";
    }

    /** What {@link #flood} prints, computed here: every result is held to it byte for byte. */
    static ExpectedStream printedBy(long bytes, boolean lines) {
        return lines
                ? ExpectedStream.repeatedLine("x".repeat(1023), bytes)
                : ExpectedStream.filled('x', bytes / 65536 * 65536);
    }

    /** A tally's figures for a row: exact, short, wrong, claimed complete, said incomplete, witness states. */
    static String outputFigures(OutputTally t) {
        return t.exact() + "/" + t.results() + " exact, " + t.shortCount() + " short, " + t.wrong() + " wrong, "
                + t.claimedComplete() + " claimed complete but short/wrong, " + t.honestIncomplete()
                + " said incomplete; witness " + t.witnessSummary();
    }

    /** Fails the run on a result whose stream is not what its process printed: no figure stands on lost bytes. */
    private static void requireExact(String what, ExpectedStream.Verdict v) {
        if (!v.isExact()) {
            throw new IllegalStateException(what + ": " + v.describe());
        }
    }

    // -------------------------------------------------------------- scenarios

    /** P6: process start to readiness, and idle memory. */
    private void startup() throws Exception {
        List<Double> ready = new ArrayList<>();
        List<Double> rss = new ArrayList<>();
        for (int i = 0; i < (everyVariant ? Math.max(3, sizes.runs()) : 1); i++) {
            long start = System.nanoTime();
            WorkerProcess w = worker("json-file");
            try {
                while (!ready(w)) {
                    Thread.sleep(5);
                }
                ready.add((System.nanoTime() - start) / 1e9);
                settle(3000);
                rss.add(Measure.rssMib(w.pid()));
            } finally {
                if (shareWorker && shared == null) {
                    shared = w; // measured: the other scenarios take it from here
                } else {
                    w.close();
                }
            }
        }
        double readyS = Measure.median(ready);
        double rssM = Measure.median(rss);
        row(
                "P6",
                "start-up: process start to readiness UP (median of " + ready.size() + ")",
                f(readyS) + " s",
                "",
                "",
                "≤ 1.0 s",
                readyS <= 1.0);
        row(
                "P6",
                "resident memory when idle (shipped JVM settings)",
                f(rssM) + " MiB",
                "",
                "",
                "≤ 128 MiB",
                rssM <= 128);
    }

    /**
     * P3: a container that runs {@code true}, submit to callback received, against docker run --rm; and the first
     * dispatch of fresh workers, submitted as soon as each reports started and once it has had time to warm up.
     */
    private void overhead() throws Exception {
        try (Receiver r = Receiver.on("127.0.0.1");
                Lease lease = lease("json-file")) {
            WorkerProcess w = lease.worker();
            timedDispatch(w, r, "true"); // not counted: the rows below are of a worker past its first dispatch
            List<Double> sluice = new ArrayList<>();
            List<Double> polled = new ArrayList<>();
            List<Double> docker = new ArrayList<>();
            for (int i = 0; i < sizes.overheadRuns(); i++) {
                sluice.add(timedDispatch(w, r, "true"));
                polled.add(polledDispatch(w, "true"));
                docker.add(cli("json-file", "true").seconds());
            }
            double p50 = Measure.median(polled) * 1000;
            double s50 = Measure.median(sluice) * 1000;
            double d50 = Measure.median(docker) * 1000;
            double s95 = Measure.percentile(sluice, 95) * 1000;
            double d95 = Measure.percentile(docker, 95) * 1000;
            double s99 = Measure.percentile(sluice, 99) * 1000;
            double d99 = Measure.percentile(docker, 99) * 1000;
            String n = " (" + sizes.overheadRuns() + " runs)";
            row(
                    "P3",
                    "dispatch overhead p50, `true`" + n,
                    f(s50) + " ms",
                    f(d50) + " ms",
                    signed(s50 - d50) + " ms",
                    "≤ CLI + 30 ms",
                    s50 <= d50 + 30);
            row(
                    "P3",
                    "dispatch overhead p50, polled (submit, then the record until it holds the result)" + n,
                    f(p50) + " ms",
                    f(d50) + " ms",
                    signed(p50 - d50) + " ms",
                    "≤ CLI + 30 ms",
                    p50 <= d50 + 30);
            row("P3", "dispatch overhead p95", f(s95) + " ms", f(d95) + " ms", signed(s95 - d95) + " ms", "", true);
            row(
                    "P3",
                    "dispatch overhead p99",
                    f(s99) + " ms",
                    f(d99) + " ms",
                    signed(s99 - d99) + " ms",
                    "≤ CLI + 100 ms",
                    s99 <= d99 + 100);
            firstDispatchRow("as soon as it reports started", Duration.ZERO, s50);
            if (everyVariant) {
                firstDispatchRow(SETTLED.toSeconds() + " s after it started", SETTLED, s50);
            }
        }
    }

    /** How long the settled first dispatch waits: time for the worker's warm-up to run after start-up. */
    private static final Duration SETTLED = Duration.ofSeconds(2);

    /** The first dispatch of fresh workers, each submitted {@code after} the worker reported started. */
    private void firstDispatchRow(String when, Duration after, double steadyMillis) throws Exception {
        List<Double> firsts = new ArrayList<>();
        for (int i = 0; i < sizes.runs(); i++) {
            try (Receiver r = Receiver.on("127.0.0.1");
                    WorkerProcess w = worker("json-file")) { // a fresh one: never the shared worker
                Thread.sleep(after.toMillis());
                firsts.add(timedDispatch(w, r, "true"));
            }
        }
        double first = Measure.median(firsts) * 1000;
        row(
                "P3",
                "first dispatch after start-up, submitted " + when + " (" + sizes.runs() + " starts)",
                f(first) + " ms",
                "steady p50 " + f(steadyMillis) + " ms",
                signed(first - steadyMillis) + " ms",
                "≤ steady + 50 ms",
                first <= steadyMillis + 50);
    }

    private static double timedDispatch(WorkerProcess w, Receiver r, String script) throws Exception {
        long start = System.nanoTime();
        String id = submit(w, r, script);
        awaitCallback(r, id, Duration.ofMinutes(5));
        return (System.nanoTime() - start) / 1e9;
    }

    /** Submit, then read the record every 2 ms until it holds the result: the way a client without a receiver sees it. */
    private static double polledDispatch(WorkerProcess w, String script) throws Exception {
        long start = System.nanoTime();
        Map<String, Object> request = new HashMap<>(WorkerClient.script(script));
        request.put("timeout", "PT2H");
        String id = w.submit(request);
        Instant deadline = Instant.now().plus(Duration.ofMinutes(5));
        while (Instant.now().isBefore(deadline)) {
            if (w.record(id).path("result").isObject()) {
                return (System.nanoTime() - start) / 1e9;
            }
            Thread.sleep(2);
        }
        throw new IllegalStateException("no result in the record of " + id + " within 5 minutes");
    }

    /**
     * P1 and P7: one dispatch writing a flood to stdout, against docker run with
     * the same producer and driver. Each worker first runs one flood that is not
     * counted, so the figures are of a warm worker, not of its JIT compiler.
     */
    private void throughput() throws Exception {
        double gib = sizes.floodBytes() / (double) (1L << 30);
        for (String driver : variants(List.of("json-file", "local"))) {
            for (boolean lines : variants(List.of(false, true))) {
                String producer = flood(sizes.floodBytes(), lines);
                ExpectedStream printed = printedBy(sizes.floodBytes(), lines);
                try (Receiver r = Receiver.on("127.0.0.1");
                        Lease lease = lease(driver)) {
                    WorkerProcess w = lease.worker();
                    awaitCallback(r, submit(w, r, producer), Duration.ofHours(1));
                    List<Double> sluice = new ArrayList<>();
                    List<Double> docker = new ArrayList<>();
                    double cpu = 0;
                    double cliCpu = 0;
                    for (int i = 0; i < sizes.runs(); i++) {
                        CliRun baseline = cli(driver, producer);
                        docker.add(baseline.seconds());
                        cliCpu += baseline.cpuSeconds();
                        double before = Measure.cpuSeconds(w.pid());
                        long start = System.nanoTime();
                        String id = submit(w, r, producer);
                        JsonNode result = result(awaitCallback(r, id, Duration.ofHours(1)));
                        sluice.add((System.nanoTime() - start) / 1e9);
                        cpu += Measure.cpuSeconds(w.pid()) - before;
                        long counted = result.path("stdoutOverflow")
                                .path("originalBytes")
                                .asLong();
                        if (counted != sizes.floodBytes()) {
                            throw new IllegalStateException("counted " + counted + " of " + sizes.floodBytes());
                        }
                        requireExact("P1 " + id, printed.check(result, "stdout"));
                    }
                    double s = Measure.median(sluice);
                    double d = Measure.median(docker);
                    double mib = sizes.floodBytes() / 1048576.0;
                    String what = (lines ? "1 KiB lines" : "64 KiB blocks") + ", " + driver + ", " + f(mib) + " MiB";
                    row(
                            "P1",
                            "capture throughput, " + what,
                            f(mib / s) + " MiB/s (" + f(s) + " s)",
                            f(mib / d) + " MiB/s (" + f(d) + " s)",
                            f(s / d) + "× time",
                            "≤ 1.1× time",
                            s / d <= 1.1);
                    double perGib = cpu / sizes.runs() / gib;
                    double cliPerGib = cliCpu / sizes.runs() / gib;
                    row(
                            "P7",
                            "worker CPU per GiB captured, " + what,
                            f(perGib) + " CPU-s/GiB",
                            f(cliPerGib) + " CPU-s/GiB (the CLI process)",
                            f(perGib / cliPerGib) + "×",
                            "≤ 0.5 CPU-s/GiB",
                            perGib <= 0.5);
                }
            }
        }
    }

    /** P5: many dispatches at once, each sleeping 1 s and printing 1 MiB; makespan against parallel docker runs. */
    private void concurrency() throws Exception {
        int n = sizes.concurrent();
        String script = "sleep 1; head -c 1048576 /dev/zero | tr '\\000' x";
        ExpectedStream printed = ExpectedStream.filled('x', 1_048_576);
        OutputTally output = new OutputTally();
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try (Receiver r = Receiver.on("127.0.0.1");
                Lease lease = lease("json-file")) {
            WorkerProcess w = lease.worker();
            List<Double> sluice = new ArrayList<>();
            List<Double> docker = new ArrayList<>();
            int errors = 0;
            for (int run = 0; run < sizes.runs(); run++) {
                long start = System.nanoTime();
                List<Future<Double>> cliRuns = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    cliRuns.add(pool.submit(() -> cli("json-file", script).seconds()));
                }
                for (Future<Double> c : cliRuns) {
                    c.get();
                }
                docker.add((System.nanoTime() - start) / 1e9);

                start = System.nanoTime();
                List<Future<String>> ids = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    ids.add(pool.submit(() -> submit(w, r, script)));
                }
                for (Future<String> id : ids) {
                    JsonNode result = result(awaitCallback(r, id.get(), Duration.ofMinutes(10)));
                    ExpectedStream.Verdict v = output.add(id.get(), printed.check(result, "stdout"));
                    if (!result.path("status").asText().equals("succeeded") || !v.isExact()) {
                        errors++;
                    }
                }
                sluice.add((System.nanoTime() - start) / 1e9);
            }
            double s = Measure.median(sluice);
            double d = Measure.median(docker);
            row(
                    "P5",
                    n + " dispatches at once (sleep 1 s, print 1 MiB): makespan",
                    f(s) + " s, " + errors + " errors (" + outputFigures(output) + ")",
                    f(d) + " s (" + n + " parallel `docker run`)",
                    f(s / d) + "×",
                    "≤ 1.1×, 0 errors",
                    s / d <= 1.1 && errors == 0);
            System.out.print(output.details());
        } finally {
            pool.shutdownNow();
        }
    }

    /** P2: concurrent floods on both streams; worker RSS and heap sampled throughout. */
    private void floods() throws Exception {
        int n = sizes.floodDispatches();
        String script = "(" + flood(sizes.floodBytes(), false) + ") & (" + flood(sizes.floodStderrBytes(), true)
                + " >&2); wait";
        try (Receiver r = Receiver.on("127.0.0.1");
                Lease lease = lease("json-file")) {
            WorkerProcess w = lease.worker();
            // Idle means idle after one small dispatch: what its first use loads (classes, compiled code,
            // the engine and callback clients' first connections) is not growth under the floods.
            awaitCallback(r, submit(w, r, "echo warm"), Duration.ofMinutes(5));
            settle(2000);
            double idleRss = Measure.rssMib(w.pid());
            double idleLive = heapAfterGc(w);
            double[] peak = {idleRss, idleLive};
            ScheduledSampler sampler = new ScheduledSampler(() -> {
                peak[0] = Math.max(peak[0], Measure.rssMib(w.pid()));
                peak[1] = Math.max(peak[1], heapMib(w));
            });
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ids.add(submit(w, r, script));
            }
            ExpectedStream printedOut = printedBy(sizes.floodBytes(), false);
            ExpectedStream printedErr = printedBy(sizes.floodStderrBytes(), true);
            OutputTally output = new OutputTally();
            for (String id : ids) {
                JsonNode result = result(awaitCallback(r, id, Duration.ofHours(1)));
                output.add(id + " stdout", printedOut.check(result, "stdout"));
                output.add(id + " stderr", printedErr.check(result, "stderr"));
            }
            sampler.close();
            double afterLive = heapAfterGc(w);
            String flood = n + " × (" + f(sizes.floodBytes() / 1048576.0) + " MiB stdout + "
                    + f(sizes.floodStderrBytes() / 1048576.0) + " MiB stderr)";
            row(
                    "P2",
                    "RSS growth over idle under " + flood + " (shipped JVM settings)",
                    signed(peak[0] - idleRss) + " MiB (idle " + f(idleRss) + ", peak " + f(peak[0]) + ")",
                    "",
                    "",
                    "≤ 64 MiB",
                    peak[0] - idleRss <= 64);
            row(
                    "P2",
                    "heap used under the same floods (garbage included), peak",
                    f(peak[1]) + " MiB",
                    "",
                    "",
                    "",
                    true);
            // Flat: what stays reachable once the floods are over is what was reachable before them.
            row(
                    "P2",
                    "live heap (after a full GC) before and after the floods",
                    f(idleLive) + " → " + f(afterLive) + " MiB",
                    "",
                    "",
                    "flat (± 16 MiB)",
                    Math.abs(afterLive - idleLive) <= 16);
            row(
                    "P2",
                    "the floods' streams held to what was printed (digest length and SHA-256)",
                    outputFigures(output),
                    "",
                    "",
                    "all exact",
                    output.exact() == output.results());
            System.out.print(output.details());
        }
    }

    /** P8: many short-lived containers printing a known number of bytes: every byte counted. */
    private void completeness() throws Exception {
        int n = sizes.completeness();
        int bytes = 12_345;
        String script = "head -c " + bytes + " /dev/zero | tr '\\000' y";
        ExpectedStream printed = ExpectedStream.filled('y', bytes);
        OutputTally output = new OutputTally();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try (Receiver r = Receiver.on("127.0.0.1");
                Lease lease = lease("json-file")) {
            WorkerProcess w = lease.worker();
            List<Future<String>> ids = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ids.add(pool.submit(() -> submit(w, r, script)));
            }
            long lost = 0;
            for (Future<String> id : ids) {
                JsonNode result = result(awaitCallback(r, id.get(), Duration.ofMinutes(30)));
                lost += Math.max(0, bytes - result.path("stdout").asText().length());
                output.add(id.get(), printed.check(result, "stdout"));
            }
            row(
                    "P8",
                    n + " short-lived containers, " + bytes + " bytes each",
                    outputFigures(output) + "; " + lost + " bytes missing from the texts",
                    "",
                    "",
                    "0 lost, every stream exact",
                    lost == 0 && output.exact() == n);
            System.out.print(output.details());
        } finally {
            pool.shutdownNow();
        }
    }

    /** P9: with many dispatches streaming, a GET and a new submit still answer quickly. */
    private void streamsVersusControl() throws Exception {
        int n = sizes.streams();
        String stream = "while true; do echo tick; sleep 0.2; done";
        try (Receiver r = Receiver.on("127.0.0.1");
                Lease lease = lease("json-file")) {
            WorkerProcess w = lease.worker();
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ids.add(submit(w, r, stream));
            }
            awaitRunning(w, ids);
            int calls = sizes.controlCalls();
            for (int i = 0; i < calls / 5; i++) { // not counted: the first calls of a fresh worker are interpreted
                status(w, "/v1/dispatches/" + ids.get(i % n));
                submit(w, r, "true");
            }
            List<Double> gets = new ArrayList<>();
            List<Double> posts = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                long start = System.nanoTime();
                status(w, "/v1/dispatches/" + ids.get(i % n));
                gets.add((System.nanoTime() - start) / 1e6);
                start = System.nanoTime();
                submit(w, r, "true");
                posts.add((System.nanoTime() - start) / 1e6);
            }
            cancel(w, ids);
            double get99 = Measure.percentile(gets, 99);
            double post99 = Measure.percentile(posts, 99);
            row(
                    "P9",
                    "GET a record while " + n + " dispatches stream (p50 / p99 of " + calls + ")",
                    f(Measure.median(gets)) + " / " + f(get99) + " ms",
                    "",
                    "",
                    "≤ 100 ms",
                    get99 <= 100);
            row(
                    "P9",
                    "POST a dispatch while " + n + " stream (p50 / p99 of " + calls + ")",
                    f(Measure.median(posts)) + " / " + f(post99) + " ms",
                    "",
                    "",
                    "≤ 100 ms",
                    post99 <= 100);
        }
    }

    /** P10: the heap a small dispatch holds, and a flood under a 64 MiB heap. */
    private void smallDispatches() throws Exception {
        int n = sizes.smallDispatches();
        try (Receiver r = Receiver.on("127.0.0.1");
                Lease lease = lease("json-file")) {
            WorkerProcess w = lease.worker();
            // Not counted: what the first dispatches load once (classes' caches, the threads' own) is not per dispatch.
            List<String> warm = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                warm.add(submit(w, r, "echo a few bytes"));
            }
            for (String id : warm) {
                awaitCallback(r, id, Duration.ofMinutes(5));
            }
            double before = heapAfterGc(w);
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ids.add(submit(w, r, "echo a few bytes; sleep 20"));
            }
            awaitRunning(w, ids);
            settle(1000); // their output is in
            double during = heapAfterGc(w);
            double perDispatchKib = (during - before) * 1024 / n;
            row(
                    "P10",
                    "heap held per running dispatch that printed < 1 KiB (" + n + " running)",
                    f(perDispatchKib) + " KiB",
                    "",
                    "",
                    "≤ 64 KiB",
                    perDispatchKib <= 64);
            cancel(w, ids);
        }
        try (Receiver r = Receiver.on("127.0.0.1");
                WorkerProcess small = smallHeapWorker()) {
            String id = submit(small, r, flood(sizes.floodBytes(), false));
            JsonNode result = result(awaitCallback(r, id, Duration.ofHours(1)));
            boolean exact = result.path("stdoutOverflow").path("originalBytes").asLong() == sizes.floodBytes()
                    && printedBy(sizes.floodBytes(), false)
                            .check(result, "stdout")
                            .isExact();
            row(
                    "P10",
                    "one " + f(sizes.floodBytes() / 1048576.0) + " MiB flood with -Xmx64m",
                    result.path("status").asText() + (exact ? ", counts exact" : ", counts wrong"),
                    "",
                    "",
                    "passes",
                    exact && small.alive());
        }
    }

    /**
     * P10's worker with a 64 MiB heap. A full run gives it the JVM's defaults
     * and {@code -Xmx64m}, as its figures have always been taken. A smoke run
     * starts it as shipped with the heap lowered ({@code JAVA_OPTS}, after
     * deploy/jvm.options): the defaults' compilers took three times as long to
     * start on two shared cores, and the flood's counts are held the same
     * either way, the shipped settings exiting on the first OutOfMemoryError.
     */
    private WorkerProcess smallHeapWorker() {
        if (sizes != Sizes.SMOKE) {
            return worker("json-file", "-Xmx64m");
        }
        Map<String, String> env = env("json-file");
        env.put("JAVA_OPTS", "-Xmx64m");
        return WorkerProcess.startAsShipped(env);
    }

    /**
     * P11: a burst of {@code true} dispatches submitted at once, with each limit
     * on the engine changes in flight ({@code sluice.docker.max-concurrent-changes},
     * 0 for none): time until every result is delivered, and how long the
     * engine takes to answer a ping meanwhile (one every 50 ms, on a client of
     * the harness's own). Limits alternate within each run (ADR 0016).
     */
    private void burst() throws Exception {
        int n = sizes.burst();
        int shipped = Integer.parseInt(Load4m.shipped(DockerConfig.class, "maxConcurrentChanges"));
        // A smoke run keeps the shipped limit only.
        List<Integer> limits = everyVariant ? List.of(4, 8, 16, 0) : List.of(shipped);
        Map<Integer, List<Double>> makespans = new LinkedHashMap<>();
        Map<Integer, List<Double>> pings = new LinkedHashMap<>();
        Map<Integer, Double> worstPing = new LinkedHashMap<>();
        Map<Integer, Integer> errors = new LinkedHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try (DockerClients docker = TestDocker.clients()) {
            for (int run = 0; run < sizes.runs(); run++) {
                for (int limit : limits) {
                    try (Receiver r = Receiver.on("127.0.0.1");
                            Lease lease = burstWorker(limit, shipped)) {
                        WorkerProcess w = lease.worker();
                        awaitCallback(r, submit(w, r, "true"), Duration.ofMinutes(5)); // not counted: a warm worker
                        List<Double> latencies = Collections.synchronizedList(new ArrayList<>());
                        ScheduledSampler sampler = new ScheduledSampler(
                                () -> {
                                    long start = System.nanoTime();
                                    docker.control().pingCmd().exec();
                                    latencies.add((System.nanoTime() - start) / 1e6);
                                },
                                50);
                        long start = System.nanoTime();
                        List<Future<String>> ids = new ArrayList<>();
                        for (int i = 0; i < n; i++) {
                            ids.add(pool.submit(() -> submit(w, r, "true")));
                        }
                        int failed = 0;
                        for (Future<String> id : ids) {
                            JsonNode result = result(awaitCallback(r, id.get(), Duration.ofMinutes(10)));
                            boolean exact =
                                    ExpectedStream.EMPTY.check(result, "stdout").isExact()
                                            && ExpectedStream.EMPTY
                                                    .check(result, "stderr")
                                                    .isExact();
                            failed += result.path("status").asText().equals("succeeded") && exact ? 0 : 1;
                        }
                        makespans.computeIfAbsent(limit, k -> new ArrayList<>()).add((System.nanoTime() - start) / 1e9);
                        sampler.close();
                        pings.computeIfAbsent(limit, k -> new ArrayList<>()).add(Measure.percentile(latencies, 99));
                        worstPing.merge(
                                limit,
                                latencies.stream()
                                        .mapToDouble(Double::doubleValue)
                                        .max()
                                        .orElse(0),
                                Math::max);
                        errors.merge(limit, failed, Integer::sum);
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
        for (int limit : limits) {
            String name = limit == 0 ? "no limit" : "at most " + limit;
            row(
                    "P11",
                    n + " `true` dispatches at once, engine changes " + name + ": makespan; ping p99 (worst) during it",
                    f(Measure.median(makespans.get(limit))) + " s; " + f(Measure.median(pings.get(limit))) + " ms ("
                            + f(worstPing.get(limit)) + " ms), " + errors.get(limit) + " errors",
                    "",
                    "",
                    "",
                    true);
        }
    }

    /**
     * P11's worker for one limit: the shared one when the scenarios share and
     * the limit is the shipped one (the shared worker sets none), otherwise
     * one of its own with the limit set.
     */
    private Lease burstWorker(int limit, int shipped) {
        if (shareWorker && limit == shipped) {
            return lease("json-file");
        }
        Map<String, String> env = env("json-file");
        env.put("SLUICE_DOCKER_MAX_CONCURRENT_CHANGES", Integer.toString(limit));
        return new Lease(WorkerProcess.startAsShipped(env), true);
    }

    // ---------------------------------------------------------------- helpers

    static int status(WorkerClient w, String path) {
        try {
            return w.status(path);
        } catch (IOException e) {
            return -1;
        }
    }

    /** Whether the worker's readiness probe, on its management port, answers UP. */
    static boolean ready(WorkerClient w) {
        try {
            return w.probeStatus("/q/health/ready") == 200;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Waits (up to 5 minutes) until all of {@code ids} are running: those of
     * the scenario, not what an earlier one on a shared worker left stopping.
     */
    private static void awaitRunning(WorkerProcess w, List<String> ids) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(5));
        while (runningCount(w, Set.copyOf(ids)) < ids.size() && Instant.now().isBefore(deadline)) {
            Thread.sleep(250);
        }
    }

    private static void cancel(WorkerProcess w, List<String> ids) throws IOException {
        for (String id : ids) {
            w.delete("/v1/dispatches/" + id);
        }
    }

    private static int runningCount(WorkerProcess w, Set<String> ids) throws IOException {
        int count = 0;
        String next = "/v1/dispatches?status=running&limit=100";
        while (next != null) {
            JsonNode page = JSON.readTree(w.get(next).body());
            for (JsonNode item : page.path("items")) {
                count += ids.contains(item.path("id").asText()) ? 1 : 0;
            }
            next = page.path("next").isNull() ? null : page.path("next").asText();
        }
        return count;
    }

    /** Heap used, from the worker's own metrics. */
    private static double heapMib(WorkerProcess w) {
        try {
            return w.probe("/q/metrics")
                            .body()
                            .lines()
                            .filter(l -> l.startsWith("jvm_memory_used_bytes") && l.contains("area=\"heap\""))
                            .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                            .sum()
                    / 1048576.0;
        } catch (IOException e) {
            return Double.NaN;
        }
    }

    private static double heapAfterGc(WorkerProcess w) throws Exception {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        for (int i = 0; i < 2; i++) {
            new ProcessBuilder(jcmd.toString(), Long.toString(w.pid()), "GC.run")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor(30, TimeUnit.SECONDS);
        }
        return heapMib(w);
    }

    /** Runs a reading every 250 ms (or as often as asked) until closed. */
    private static final class ScheduledSampler implements AutoCloseable {
        private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

        ScheduledSampler(Runnable reading) {
            this(reading, 250);
        }

        ScheduledSampler(Runnable reading, long everyMillis) {
            timer.scheduleAtFixedRate(reading, 0, everyMillis, TimeUnit.MILLISECONDS);
        }

        @Override
        public void close() {
            timer.shutdownNow();
        }
    }
}
