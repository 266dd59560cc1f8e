package dev.sluice.bench;

import static dev.sluice.bench.Measure.f;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;

/**
 * What the shipped JIT setting (C1 only, deploy/jvm.options; ADR 0019) costs
 * once the worker is up: two workers side by side, one with the shipped
 * settings and one with the full tiered compiler (C2) restored, each capturing
 * the same floods in turn. The figure is the worker's CPU per flood, medians
 * of the rounds after one uncounted round. Run by {@code bench/run.sh jit}.
 */
public final class CompilerComparison {

    private static final Map<String, String> FLOODS = new LinkedHashMap<>();

    static {
        FLOODS.put("1 GiB in 64 KiB blocks", Harness.flood(1L << 30, false));
        FLOODS.put("512 MiB in 1 KiB lines", Harness.flood(512L << 20, true));
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        String shipped = "@" + Path.of("deploy/jvm.options").toAbsolutePath();
        Map<String, String[]> settings = new LinkedHashMap<>();
        settings.put("C1 only (shipped)", new String[] {shipped});
        settings.put("tiered, C1 and C2", new String[] {shipped, "-XX:TieredStopAtLevel=4", "-XX:CICompilerCount=2"});
        Map<String, List<Double>> cpu = new LinkedHashMap<>();
        List<WorkerProcess> workers = new ArrayList<>();
        try (Receiver receiver = Receiver.on("127.0.0.1")) {
            for (String[] jvm : settings.values()) {
                Map<String, String> env =
                        WorkerProcess.baseEnvironment(WorkerProcess.freshDataDir("bench-jit"), "bench-jit");
                env.put("SLUICE_DISPATCH_DEFAULT_MEMORY", "256M");
                env.put("QUARKUS_LOG_LEVEL", "WARN");
                workers.add(WorkerProcess.start(env, jvm));
            }
            List<String> names = new ArrayList<>(settings.keySet());
            for (int round = 0; round <= rounds; round++) {
                for (Map.Entry<String, String> flood : FLOODS.entrySet()) {
                    for (int w = 0; w < workers.size(); w++) {
                        double used = capture(workers.get(w), receiver, flood.getValue());
                        System.out.printf("round %d, %s, %s: %s CPU-s%n", round, flood.getKey(), names.get(w), f(used));
                        if (round > 0) {
                            cpu.computeIfAbsent(flood.getKey() + " | " + names.get(w), k -> new ArrayList<>())
                                    .add(used);
                        }
                    }
                }
            }
        } finally {
            workers.forEach(WorkerProcess::close);
        }
        StringBuilder t = new StringBuilder("| flood | JIT | worker CPU per flood |\n| --- | --- | --- |\n");
        cpu.forEach((k, v) -> t.append("| ")
                .append(k)
                .append(" | ")
                .append(f(Measure.median(v)))
                .append(" CPU-s |\n"));
        t.append("\nMedians of ").append(rounds).append(" rounds after one uncounted round.\n");
        System.out.println(t);
    }

    /** One flood through one worker, to its delivered result; the worker's CPU meanwhile. */
    private static double capture(WorkerProcess worker, Receiver receiver, String producer) throws Exception {
        Map<String, Object> request = new HashMap<>(WorkerClient.script(producer));
        request.put("callbackUrl", receiver.url("/bench"));
        double before = Measure.cpuSeconds(worker.pid());
        worker.awaitDelivered(worker.submit(request));
        return Measure.cpuSeconds(worker.pid()) - before;
    }
}
