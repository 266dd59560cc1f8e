package dev.sluice.bench;

import static dev.sluice.bench.Measure.f;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.sluice.testsupport.WorkerContainer;

/**
 * P6 in the JVM image: {@code docker start} to readiness UP, the CPU the JVM
 * spent getting there, and its resident memory when idle, for the image as
 * shipped and for the start-up options it was chosen over. Variants alternate
 * run by run, so load from elsewhere falls on all of them alike; medians, and
 * the fastest start, are reported. {@code bench/run.sh image} builds the image and runs this.
 */
public final class ImageStartup {

    /** How long a started worker is left alone before its memory is read. */
    private static final long IDLE_MILLIS = 5_000;

    private static final String PLAIN_JAVA =
            "exec java @/deployments/jvm.options $JAVA_OPTS -jar /deployments/sluice.jar";

    /** One way of starting the image: settings over the shipped ones, or a command instead of its entrypoint. */
    record Variant(String name, Map<String, String> env, String... command) {}

    /** One variant's medians. */
    record Figures(
            Variant variant, int runs, double ready, double fastest, double dockerStart, double cpu, double idleRss) {}

    static final List<Variant> VARIANTS = List.of(
            new Variant("as shipped: AppCDS archive, C1 only", Map.of()),
            new Variant("the JDK's default CDS only, no AppCDS", Map.of(), "sh", "-c", PLAIN_JAVA),
            new Variant("no CDS at all (-Xshare:off)", Map.of("JAVA_OPTS", "-Xshare:off"), "sh", "-c", PLAIN_JAVA),
            new Variant(
                    "AppCDS, full tiered compiler (C2)",
                    Map.of("JAVA_OPTS", "-XX:TieredStopAtLevel=4 -XX:CICompilerCount=2")),
            new Variant("AppCDS, two C1 compiler threads", Map.of("JAVA_OPTS", "-XX:CICompilerCount=2")));

    private ImageStartup() {}

    public static void main(String[] args) throws Exception {
        String image = args.length > 0 ? args[0] : "sluice:jvm";
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        String load = Files.readString(Path.of("/proc/loadavg")).strip();
        List<Figures> figures = run(image, runs, VARIANTS);
        String report = report(
                image, figures, load, Files.readString(Path.of("/proc/loadavg")).strip());
        System.out.println(report);
        Files.writeString(Path.of("target/bench-image.md"), report);
    }

    /** Runs every variant {@code runs} times, in turn. */
    static List<Figures> run(String image, int runs, List<Variant> variants) throws Exception {
        Map<Variant, List<double[]>> samples = new LinkedHashMap<>();
        variants.forEach(v -> samples.put(v, new ArrayList<>()));
        // One start that is not counted: the image's files come into the page
        // cache and this process compiles its own polling, for every variant alike.
        double[] first = once(image, variants.get(0), runs);
        System.out.printf("%s, not counted: ready %s s%n", variants.get(0).name(), f(first[0]));
        for (int i = 0; i < runs; i++) {
            for (Variant v : variants) {
                double[] s = once(image, v, i);
                samples.get(v).add(s);
                System.out.printf(
                        "%s, run %d: ready %s s (docker start %s s), %s CPU-s, idle %s MiB%n",
                        v.name(), i + 1, f(s[0]), f(s[1]), f(s[2]), f(s[3]));
            }
        }
        List<Figures> figures = new ArrayList<>();
        samples.forEach((v, list) -> figures.add(new Figures(
                v,
                list.size(),
                median(list, 0),
                list.stream().mapToDouble(s -> s[0]).min().orElse(Double.NaN),
                median(list, 1),
                median(list, 2),
                median(list, 3))));
        return figures;
    }

    /** One start: seconds to ready, seconds docker start took, CPU seconds to ready, idle RSS in MiB. */
    private static double[] once(String image, Variant v, int run) throws Exception {
        String name = "sluice-bench-image-" + ProcessHandle.current().pid() + "-" + run;
        try (WorkerContainer w = WorkerContainer.create(image, name, v.env(), v.command())) {
            long t0 = System.nanoTime();
            w.start();
            long started = System.nanoTime();
            while (!ready(w)) {
                Thread.sleep(5);
            }
            long ready = System.nanoTime();
            long pid = w.pid();
            double cpu = Measure.cpuSeconds(pid);
            Thread.sleep(IDLE_MILLIS);
            return new double[] {(ready - t0) / 1e9, (started - t0) / 1e9, cpu, Measure.rssMib(pid)};
        }
    }

    private static boolean ready(WorkerContainer w) {
        try {
            return w.probeStatus("/q/health/ready") == 200;
        } catch (IOException e) {
            return false;
        }
    }

    private static double median(List<double[]> samples, int index) {
        return Measure.median(samples.stream().map(s -> s[index]).toList());
    }

    static String report(String image, List<Figures> figures, String loadBefore, String loadAfter) {
        String size = WorkerContainer.docker("image", "inspect", "-f", "{{.Size}}", image)
                .stdout()
                .strip();
        StringBuilder t = new StringBuilder();
        t.append("Image ")
                .append(image)
                .append(": ")
                .append(f(Long.parseLong(size) / 1e6))
                .append(" MB. Load average before: ")
                .append(loadBefore)
                .append("; after: ")
                .append(loadAfter)
                .append(".\n\n");
        t.append("| start-up | docker start → readiness UP | fastest run | of which `docker start` | JVM CPU to ready"
                        + " | idle RSS |\n")
                .append("| --- | --- | --- | --- | --- | --- |\n");
        for (Figures x : figures) {
            t.append("| ")
                    .append(x.variant().name())
                    .append(" | ")
                    .append(f(x.ready()))
                    .append(" s | ")
                    .append(f(x.fastest()))
                    .append(" s | ")
                    .append(f(x.dockerStart()))
                    .append(" s | ")
                    .append(f(x.cpu()))
                    .append(" CPU-s | ")
                    .append(f(x.idleRss()))
                    .append(" MiB |\n");
        }
        t.append("\nMedians of ")
                .append(figures.isEmpty() ? 0 : figures.get(0).runs())
                .append(" runs each, after one start that is not counted.\n");
        return t.toString();
    }
}
