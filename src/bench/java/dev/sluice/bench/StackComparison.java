package dev.sluice.bench;

import static dev.sluice.bench.Measure.f;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.WorkerContainer;

/**
 * The worker's start-up stack as shipped beside the simpler one it was chosen
 * over, in one run: the same JVM image started as it ships ("A": C1 alone on
 * one compiler thread, SHA-256 from NSS; ADR 0048), with the JVM's own
 * compiler settings and the JDK's SHA-256 ("B"), and as it ships but without
 * its AppCDS archive ("A₀"), so each setting is judged by what it changes once
 * the rest is equal. In every pair each arm runs once, the order reversed from
 * one pair to the next (A B A₀, A₀ B A, ...), so load from elsewhere on the
 * machine falls on all of them alike. Each arm is a fresh container run as the
 * Kubernetes manifests run it ({@link WorkerContainer}). {@code bench/run.sh
 * stacks} builds the image and runs this.
 *
 * <p>Per arm: {@code docker start} to readiness UP (P6) and the JVM's CPU until
 * then; the first {@code true} dispatch and the median of the next five,
 * submit to callback; resident memory after 10 s idle. A and B then capture a
 * flood in 64 KiB blocks and one in 1 KiB lines, after one uncounted flood of
 * each at half the size, to delivered results held to what was printed (P1,
 * and the worker's CPU per GiB, P7), and their memory is read again after 10 s
 * idle. The Docker CLI runs the same floods once per pair, for the ratio P1 is
 * judged by.
 */
public final class StackComparison {

    private static final Duration IDLE = Duration.ofSeconds(10);
    private static final int STEADY_DISPATCHES = 5;

    /**
     * B's settings after the shipped ones: tiered compilation up to C2 with the
     * two compiler threads the JVM gives itself on two cores, and no NSS soft
     * token on the library path, so that {@code Sha256} takes the JDK's own.
     */
    static final String DEFAULTS_AND_JDK_SHA256 =
            "-XX:TieredStopAtLevel=4 -XX:CICompilerCount=2 -Djava.library.path=/nonexistent";

    private static final String PLAIN_JAVA =
            "exec java @/deployments/jvm.options $JAVA_OPTS -jar /deployments/sluice.jar";

    private static final String READY = "P6: `docker start` → readiness UP (s)";
    private static final String CPU = "JVM CPU until ready (CPU-s)";
    private static final String FIRST = "first `true` dispatch, submit → callback (ms)";
    private static final String STEADY = "next " + STEADY_DISPATCHES + " `true` dispatches, median (ms)";
    private static final String IDLE_RSS = "idle RSS: after start and 6 dispatches, 10 s idle (MiB)";
    private static final String AFTER_RSS = "idle RSS: after the floods, 10 s idle (MiB)";

    /** One way of starting the image: settings over the shipped ones, or a command instead of its entrypoint. */
    record Arm(String name, Map<String, String> env, boolean captures, String... command) {}

    static final List<Arm> ARMS = List.of(
            new Arm("A: as shipped (C1 alone, SHA-256 from NSS)", Map.of(), true),
            new Arm(
                    "B: the JVM's default compilers (C2), the JDK's SHA-256",
                    Map.of("JAVA_OPTS", DEFAULTS_AND_JDK_SHA256),
                    true),
            new Arm("A₀: as shipped without its AppCDS archive", Map.of(), false, "sh", "-c", PLAIN_JAVA));

    private final String image;
    private final long floodBytes;
    /** Figure → arm → one sample per pair. */
    private final Map<String, Map<String, List<Double>>> samples = new LinkedHashMap<>();

    private StackComparison(String image, long floodBytes) {
        this.image = image;
        this.floodBytes = floodBytes;
        // The table's order: start-up first, then capture, then memory after it.
        for (String figure : List.of(READY, CPU, FIRST, STEADY, IDLE_RSS)) {
            samples.put(figure, new LinkedHashMap<>());
        }
        for (boolean lines : List.of(false, true)) {
            samples.put(floodFigure(lines), new LinkedHashMap<>());
            samples.put(cpuFigure(lines), new LinkedHashMap<>());
        }
        samples.put(AFTER_RSS, new LinkedHashMap<>());
    }

    /** Arguments: the image (sluice:jvm), pairs (4), flood MiB (256). */
    public static void main(String[] args) throws Exception {
        String image = args.length > 0 ? args[0] : "sluice:jvm";
        int pairs = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        long floodMib = args.length > 2 ? Long.parseLong(args[2]) : 256;
        String loadBefore = Files.readString(Path.of("/proc/loadavg")).strip();
        StackComparison run = new StackComparison(image, floodMib << 20);
        for (int pair = 0; pair < pairs; pair++) {
            run.cli(pair);
            List<Arm> order = new ArrayList<>(ARMS);
            if (pair % 2 == 1) {
                Collections.reverse(order);
            }
            for (Arm arm : order) {
                run.arm(arm, pair, ARMS.indexOf(arm));
            }
        }
        String loadAfter = Files.readString(Path.of("/proc/loadavg")).strip();
        String report = run.report(ARMS, pairs, loadBefore, loadAfter);
        System.out.println(report);
        Files.writeString(Path.of("target/bench-stacks.md"), report);
    }

    private void add(String figure, String arm, double value) {
        samples.computeIfAbsent(figure, k -> new LinkedHashMap<>())
                .computeIfAbsent(arm, k -> new ArrayList<>())
                .add(value);
    }

    /** The Docker CLI on the same floods: the baseline P1's ratio is taken against, pair by pair. */
    private void cli(int pair) throws Exception {
        for (boolean lines : List.of(false, true)) {
            double s =
                    Harness.cli("json-file", Harness.flood(floodBytes, lines)).seconds();
            add(floodFigure(lines), "CLI", s);
            System.out.printf("pair %d, Docker CLI, %s: %s s%n", pair + 1, kind(lines), f(s));
        }
    }

    private void arm(Arm arm, int pair, int index) throws Exception {
        String container = "sluice-bench-stacks-" + ProcessHandle.current().pid() + "-" + pair + "-" + index;
        Map<String, String> env = new HashMap<>(arm.env());
        env.put("SLUICE_DISPATCH_DEFAULT_MEMORY", "256M");
        env.put("SLUICE_WORKER_RECONCILE_INTERVAL", "30s");
        env.put("QUARKUS_LOG_LEVEL", "WARN");
        try (Receiver r = Receiver.on("127.0.0.1");
                WorkerContainer w = WorkerContainer.create(image, container, env, arm.command())) {
            long t0 = System.nanoTime();
            w.start();
            while (!Harness.ready(w)) {
                Thread.sleep(5);
            }
            double ready = (System.nanoTime() - t0) / 1e9;
            long pid = w.pid();
            double cpu = Measure.cpuSeconds(pid);
            double first = dispatch(w, r, "true");
            List<Double> steady = new ArrayList<>();
            for (int i = 0; i < STEADY_DISPATCHES; i++) {
                steady.add(dispatch(w, r, "true"));
            }
            Thread.sleep(IDLE.toMillis());
            double idle = Measure.rssMib(pid);
            add(READY, arm.name(), ready);
            add(CPU, arm.name(), cpu);
            add(FIRST, arm.name(), first * 1000);
            add(STEADY, arm.name(), Measure.median(steady) * 1000);
            add(IDLE_RSS, arm.name(), idle);
            System.out.printf(
                    "pair %d, %s: ready %s s on %s CPU-s; first `true` %s ms, then %s ms; idle %s MiB%n",
                    pair + 1, arm.name(), f(ready), f(cpu), f(first * 1000), f(Measure.median(steady) * 1000), f(idle));
            if (!arm.captures()) {
                return;
            }
            capture(w, r, floodBytes / 2, false); // not counted: code compiled, buffers grown, as in P1
            capture(w, r, floodBytes / 2, true);
            for (boolean lines : List.of(false, true)) {
                double before = Measure.cpuSeconds(pid);
                double seconds = capture(w, r, floodBytes, lines);
                double perGib = (Measure.cpuSeconds(pid) - before) / (floodBytes / (double) (1L << 30));
                add(floodFigure(lines), arm.name(), seconds);
                add(cpuFigure(lines), arm.name(), perGib);
                System.out.printf(
                        "pair %d, %s, %s: %s s, %s CPU-s/GiB%n",
                        pair + 1, arm.name(), kind(lines), f(seconds), f(perGib));
            }
            Thread.sleep(IDLE.toMillis());
            double after = Measure.rssMib(pid);
            add(AFTER_RSS, arm.name(), after);
            System.out.printf("pair %d, %s: idle %s MiB after the floods%n", pair + 1, arm.name(), f(after));
        }
    }

    /** Submit to callback, in seconds. */
    private static double dispatch(WorkerContainer w, Receiver r, String script) throws Exception {
        long start = System.nanoTime();
        Harness.awaitCallback(r, Harness.submit(w, r, script), Duration.ofMinutes(5));
        return (System.nanoTime() - start) / 1e9;
    }

    /** One flood to its delivered result, which must hold exactly what was printed; seconds. */
    private static double capture(WorkerContainer w, Receiver r, long bytes, boolean lines) throws Exception {
        long start = System.nanoTime();
        String id = Harness.submit(w, r, Harness.flood(bytes, lines));
        JsonNode result = Harness.result(Harness.awaitCallback(r, id, Duration.ofMinutes(30)));
        double seconds = (System.nanoTime() - start) / 1e9;
        long counted = result.path("stdoutOverflow").path("originalBytes").asLong();
        var verdict = Harness.printedBy(bytes, lines).check(result, "stdout");
        if (counted != bytes || !verdict.isExact()) {
            throw new IllegalStateException(
                    id + ": counted " + counted + " of " + bytes + " bytes; " + verdict.describe());
        }
        return seconds;
    }

    private static String kind(boolean lines) {
        return lines ? "1 KiB lines" : "64 KiB blocks";
    }

    private String floodFigure(boolean lines) {
        return "P1: " + (floodBytes >> 20) + " MiB in " + kind(lines) + ", submit → callback (s)";
    }

    private String cpuFigure(boolean lines) {
        return "P7: worker CPU per GiB, " + kind(lines) + " (CPU-s/GiB)";
    }

    private String report(List<Arm> arms, int pairs, String loadBefore, String loadAfter) {
        String a = arms.get(0).name();
        String b = arms.get(1).name();
        StringBuilder t = new StringBuilder();
        t.append("Load average before: ")
                .append(loadBefore)
                .append("; after: ")
                .append(loadAfter)
                .append(". Median (min–max) of ")
                .append(pairs)
                .append(" pairs; the last column is B against A within each pair.\n\n| figure |");
        arms.forEach(arm -> t.append(' ').append(arm.name()).append(" |"));
        t.append(" Docker CLI | B against A, per pair |\n|").append(" --- |".repeat(arms.size() + 3));
        t.append('\n');
        samples.forEach((figure, byArm) -> {
            t.append("| ").append(figure).append(" |");
            arms.forEach(
                    arm -> t.append(' ').append(spread(byArm.get(arm.name()))).append(" |"));
            t.append(' ').append(spread(byArm.get("CLI"))).append(" | ");
            t.append(paired(figure, byArm.get(a), byArm.get(b))).append(" |\n");
        });
        if (samples.containsKey(floodFigure(false))) {
            t.append("\nP1 against the CLI, per pair (time ÷ the CLI's time in the same pair):\n\n");
            for (boolean lines : List.of(false, true)) {
                Map<String, List<Double>> byArm = samples.get(floodFigure(lines));
                for (String arm : List.of(a, b)) {
                    t.append("- ")
                            .append(kind(lines))
                            .append(", ")
                            .append(arm)
                            .append(": ")
                            .append(spread(ratios(byArm.get(arm), byArm.get("CLI"))))
                            .append("×\n");
                }
            }
        }
        return t.toString();
    }

    /** B's samples against A's in the same pair: a difference, or for P1 a ratio of times. */
    private static String paired(String figure, List<Double> a, List<Double> b) {
        if (a == null || b == null) {
            return "";
        }
        if (figure.startsWith("P1")) {
            return spread(ratios(b, a)) + "× time";
        }
        List<Double> d = new ArrayList<>();
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            d.add(b.get(i) - a.get(i));
        }
        return signedSpread(d);
    }

    private static List<Double> ratios(List<Double> x, List<Double> y) {
        List<Double> r = new ArrayList<>();
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
            r.add(x.get(i) / y.get(i));
        }
        return r;
    }

    private static String spread(List<Double> values) {
        if (values == null || values.isEmpty()) {
            return "";
        }
        return f(Measure.median(values)) + " (" + f(min(values)) + "–" + f(max(values)) + ")";
    }

    private static String signedSpread(List<Double> values) {
        return Measure.signed(Measure.median(values)) + " (" + Measure.signed(min(values)) + " to "
                + Measure.signed(max(values)) + ")";
    }

    private static double min(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    private static double max(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }
}
