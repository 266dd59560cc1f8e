package dev.sluice.storelab;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Runs the worker's result-write pattern against one variant and writes what
 * it measured as JSON.
 *
 * <p>Per round: {@code threads} finishing transactions start together (each
 * holds its own freshly built result of {@code size} bytes); each updates its
 * dispatch row with the result and inserts the outbox row, in one transaction,
 * through a pool of {@code pool} connections. Meanwhile one delivery thread
 * claims due outbox rows every 100 ms, reads each stored result back as a
 * stream into a discarding sink and records it delivered, and a reaper deletes
 * the records of the round before the last {@code keep} ones. A round ends
 * when every stored result has been delivered.
 *
 * <p>Usage: {@code StoreLab --variant NAME --dir DATA_DIR --out RESULT.json
 * [--rounds-1m 10] [--rounds-4m 3] [--threads 50] [--pool 32] [--stall-seconds 30]
 * [--reads 20] [--keep 2]}
 */
public final class StoreLab {

    private static final int MIB = 1024 * 1024;
    private static final String WORKER = "lab-worker";

    private final Variant variant;
    private final Path dir;
    private final Path out;
    private final int threads;
    private final int keep;
    private final Map<String, Object> results = new LinkedHashMap<>();
    private final List<Map<String, Object>> phases = Collections.synchronizedList(new ArrayList<>());
    private final Payloads payloads = new Payloads(42);
    private final Watchdog watchdog;
    private final LabStore store;

    /** Errors by phase and message, with the first stack trace of each. */
    private final Map<String, AtomicInteger> errors = new ConcurrentHashMap<>();
    private final Map<String, String> errorStacks = new ConcurrentHashMap<>();

    /** Delivery: ids delivered, and when. */
    private final Map<String, Long> deliveredAt = new ConcurrentHashMap<>();
    private volatile boolean stopDelivery;
    private volatile String currentPhase = "setup";

    private StoreLab(Map<String, String> args) throws Exception {
        variant = Variant.parse(req(args, "variant"));
        dir = Path.of(req(args, "dir")).toAbsolutePath();
        out = Path.of(req(args, "out")).toAbsolutePath();
        threads = Integer.parseInt(args.getOrDefault("threads", "50"));
        keep = Integer.parseInt(args.getOrDefault("keep", "2"));
        int pool = Integer.parseInt(args.getOrDefault("pool", "32"));
        int stallSeconds = Integer.parseInt(args.getOrDefault("stall-seconds", "30"));
        deleteRecursively(dir);
        Files.createDirectories(dir);
        Files.createDirectories(out.getParent());
        results.put("variant", variant.name());
        results.put("threads", threads);
        results.put("pool", pool);
        results.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        results.put("maxHeapMiB", Runtime.getRuntime().maxMemory() / MIB);
        results.put("stalled", false);
        Path dump = out.resolveSibling(out.getFileName().toString().replace(".json", "") + "-stall.txt");
        watchdog = new Watchdog(stallSeconds, dump, this::onStall);
        store = new LabStore(variant, dir, pool, watchdog);
        results.put("url", store.url());
    }

    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new HashMap<>();
        for (int i = 0; i + 1 < argv.length; i += 2) {
            args.put(argv[i].replaceFirst("^--", ""), argv[i + 1]);
        }
        StoreLab lab = new StoreLab(args);
        lab.run(
                Integer.parseInt(args.getOrDefault("rounds-1m", "10")),
                Integer.parseInt(args.getOrDefault("rounds-4m", "3")),
                Integer.parseInt(args.getOrDefault("reads", "20")));
        System.exit(0);
    }

    private void run(int rounds1m, int rounds4m, int reads) throws Exception {
        store.migrate();
        results.put("database", store.driverVersion());
        Thread delivery = new Thread(this::deliver, "delivery");
        delivery.setDaemon(true);
        delivery.start();
        ExecutorService finishers = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "finisher-" + THREAD_NO.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        List<List<String>> rounds = new ArrayList<>();
        String lastId = null;
        long runStart = System.nanoTime();
        for (int[] phase : new int[][] {{1, rounds1m}, {4, rounds4m}}) {
            if (phase[1] > 0) {
                lastId = runPhase(phase[0] * MIB, phase[1], rounds, finishers);
            }
        }
        results.put("runSeconds", round1((System.nanoTime() - runStart) / 1e9));
        stopDelivery = true;
        delivery.join(10_000);
        finishers.shutdownNow();
        currentPhase = "read";
        if (lastId != null) {
            results.put("read", readSide(lastId, reads));
        }
        currentPhase = "end";
        results.put("longestCallMs", watchdog.longestMillis());
        results.put("memory", memory());
        results.put("sizeOpen", sizes());
        store.close();
        results.put("sizeClosed", sizes());
        writeResults();
    }

    private static final AtomicInteger THREAD_NO = new AtomicInteger();

    /** Runs {@code count} rounds of {@code size}-byte results; returns one stored id for the read test. */
    private String runPhase(int size, int count, List<List<String>> rounds, ExecutorService finishers)
            throws Exception {
        String name = (size / MIB) + "MiB";
        currentPhase = name;
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("resultBytes", size);
        p.put("rounds", count);
        phases.add(p);
        results.put("phases", phases);
        List<Double> totalMs = Collections.synchronizedList(new ArrayList<>());
        List<Double> commitMs = Collections.synchronizedList(new ArrayList<>());
        List<Double> updateMs = Collections.synchronizedList(new ArrayList<>());
        List<Double> acquireMs = Collections.synchronizedList(new ArrayList<>());
        List<Double> fileMs = Collections.synchronizedList(new ArrayList<>());
        List<Double> roundWriteMs = new ArrayList<>();
        List<Double> roundDeliveredMs = new ArrayList<>();
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        int undelivered = 0;
        int reaped = 0;
        String sample = null;
        for (int r = 0; r < count; r++) {
            int roundNo = rounds.size();
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                ids.add(String.format("r%03d-%s-%02d", roundNo, name, i));
            }
            rounds.add(ids);
            store.insertRunning(ids, Instant.now());
            List<String> toReap = roundNo - keep - 1 >= 0 ? rounds.get(roundNo - keep - 1) : List.of();
            CountDownLatch ready = new CountDownLatch(threads);
            CountDownLatch go = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(threads);
            Set<String> stored = ConcurrentHashMap.newKeySet();
            long[] finishedAt = new long[threads];
            for (int i = 0; i < threads; i++) {
                int n = i;
                String id = ids.get(i);
                finishers.execute(() -> {
                    try {
                        byte[] body = payloads.build(id, size, roundNo * 1000 + n);
                        // the worker before ADR 0017 bound the JSON as a String
                        String text = variant.body() == Variant.Body.TEXT || variant.body() == Variant.Body.CLOB
                                ? new String(body, StandardCharsets.UTF_8)
                                : null;
                        ready.countDown();
                        go.await();
                        long t0 = System.nanoTime();
                        LabStore.Timings t = new LabStore.Timings();
                        try {
                            store.finish(id, text, body, Instant.now(), t);
                            long took = System.nanoTime() - t0;
                            totalMs.add(took / 1e6);
                            commitMs.add(t.commit / 1e6);
                            updateMs.add(t.update / 1e6);
                            acquireMs.add(t.acquire / 1e6);
                            if (variant.body() == Variant.Body.FILE) {
                                fileMs.add(t.file / 1e6);
                            }
                            stored.add(id);
                            ok.incrementAndGet();
                        } catch (Exception e) {
                            failed.incrementAndGet();
                            error(name + " finish", e);
                        }
                        finishedAt[n] = System.nanoTime();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        done.countDown();
                    }
                });
            }
            ready.await();
            Thread reaper = new Thread(
                    () -> {
                        try {
                            store.reap(toReap);
                        } catch (Exception e) {
                            error(name + " reap", e);
                        }
                    },
                    "reaper");
            long start = System.nanoTime();
            go.countDown();
            reaper.start();
            done.await();
            long lastFinish = 0;
            for (long f : finishedAt) {
                lastFinish = Math.max(lastFinish, f);
            }
            roundWriteMs.add(round1((lastFinish - start) / 1e6));
            // wait for the delivery thread to deliver every stored result
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!deliveredAt.keySet().containsAll(stored) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            long lastDelivered = start;
            int missing = 0;
            for (String id : stored) {
                Long at = deliveredAt.get(id);
                if (at == null) {
                    missing++;
                } else {
                    lastDelivered = Math.max(lastDelivered, at);
                }
            }
            undelivered += missing;
            roundDeliveredMs.add(round1((lastDelivered - start) / 1e6));
            reaper.join();
            reaped += toReap.size();
            if (!stored.isEmpty()) {
                sample = stored.iterator().next();
            }
            System.out.printf(
                    "%s %s round %d/%d: %d ok, %d failed, writes %.0f ms, delivered %.0f ms%n",
                    variant.name(),
                    name,
                    r + 1,
                    count,
                    stored.size(),
                    threads - stored.size(),
                    roundWriteMs.get(roundWriteMs.size() - 1),
                    roundDeliveredMs.get(roundDeliveredMs.size() - 1));
            synchronized (p) {
                p.put("roundsDone", r + 1);
                p.put("ok", ok.get());
                p.put("failed", failed.get());
                p.put("undelivered", undelivered);
                p.put("transactionMs", stats(totalMs));
                p.put("commitMs", stats(commitMs));
                p.put("updateMs", stats(updateMs));
                p.put("poolWaitMs", stats(acquireMs));
                if (!fileMs.isEmpty()) {
                    p.put("fileWriteMs", stats(fileMs));
                }
                p.put("roundWriteMs", stats(roundWriteMs));
                p.put("roundDeliveredMs", stats(roundDeliveredMs));
                p.put("roundWriteMsEach", new ArrayList<>(roundWriteMs));
                p.put("errors", errorsSnapshot());
            }
            writeResults();
        }
        p.put("recordsReaped", reaped);
        return sample;
    }

    private void deliver() {
        OutputStream sink = OutputStream.nullOutputStream();
        LabStore.ReadMethod method = store.deliveryReadMethod();
        long next = System.nanoTime();
        while (!stopDelivery) {
            next += TimeUnit.MILLISECONDS.toNanos(100);
            long sleep = next - System.nanoTime();
            if (sleep > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(sleep);
                } catch (InterruptedException e) {
                    return;
                }
            } else {
                next = System.nanoTime();
            }
            try {
                Instant now = Instant.now();
                List<LabStore.Due> due = store.claim(now, 32, WORKER, now.plus(Duration.ofSeconds(60)));
                for (LabStore.Due d : due) {
                    long t0 = System.nanoTime();
                    store.readBody(d.dispatchId(), method, sink);
                    store.markDelivered(
                            d.dispatchId(), WORKER, Instant.now(), (System.nanoTime() - t0) / 1_000_000);
                    deliveredAt.put(d.dispatchId(), System.nanoTime());
                }
            } catch (Exception e) {
                error(currentPhase + " delivery", e);
            }
        }
    }

    /** Reads one stored result repeatedly with each method: time and heap allocated per read. */
    private Map<String, Object> readSide(String id, int reads) throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        OutputStream sink = OutputStream.nullOutputStream();
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("id", id);
        for (LabStore.ReadMethod m : store.readMethods()) {
            List<Double> ms = new ArrayList<>();
            List<Double> alloc = new ArrayList<>();
            long bytes = 0;
            for (int i = 0; i < reads + 3; i++) {
                long a0 = mx.getCurrentThreadAllocatedBytes();
                long t0 = System.nanoTime();
                bytes = store.readBody(id, m, sink);
                long t1 = System.nanoTime();
                long a1 = mx.getCurrentThreadAllocatedBytes();
                if (i >= 3) {
                    ms.add((t1 - t0) / 1e6);
                    alloc.add((a1 - a0) / (double) MIB);
                }
            }
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("bytes", bytes);
            one.put("ms", stats(ms));
            one.put("allocatedMiB", stats(alloc));
            r.put(m.name(), one);
        }
        return r;
    }

    private Map<String, Object> memory() throws IOException, InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("heapAfterGcMiB", round1(
                ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (double) MIB));
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:") || line.startsWith("VmHWM:")) {
                String[] f = line.split("\\s+");
                m.put(line.startsWith("VmRSS") ? "rssMiB" : "rssPeakMiB", round1(Long.parseLong(f[1]) / 1024.0));
            }
        }
        var direct = ManagementFactory.getPlatformMXBeans(java.lang.management.BufferPoolMXBean.class);
        for (var b : direct) {
            m.put("bufferPool_" + b.getName() + "_MiB", round1(b.getMemoryUsed() / (double) MIB));
        }
        return m;
    }

    private Map<String, Object> sizes() throws IOException {
        Map<String, Object> s = new LinkedHashMap<>();
        long total = 0;
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                long size = Files.size(f);
                total += size;
                String key = dir.relativize(f).startsWith("results") ? "results/" : dir.relativize(f).toString();
                s.merge(key, size, (a, b) -> (Long) a + (Long) b);
            }
        }
        Map<String, Object> mib = new LinkedHashMap<>();
        mib.put("totalMiB", round1(total / (double) MIB));
        s.forEach((k, v) -> mib.put(k + " MiB", round1((Long) v / (double) MIB)));
        return mib;
    }

    private void error(String where, Throwable e) {
        StringBuilder msg = new StringBuilder(where).append(": ");
        Throwable t = e;
        int depth = 0;
        while (t != null && depth < 3) {
            if (depth > 0) {
                msg.append(" <- ");
            }
            String m = String.valueOf(t.getMessage()).lines().findFirst().orElse("");
            msg.append(t.getClass().getSimpleName()).append(": ").append(m.length() > 240 ? m.substring(0, 240) : m);
            if (t instanceof SQLException s) {
                msg.append(" [SQLState ").append(s.getSQLState()).append(", code ").append(s.getErrorCode()).append(']');
            }
            t = t.getCause();
            depth++;
        }
        String key = msg.toString();
        errors.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
        errorStacks.computeIfAbsent(key, k -> {
            StringWriter sw = new StringWriter();
            e.printStackTrace(new PrintWriter(sw));
            return sw.toString();
        });
    }

    private Map<String, Object> errorsSnapshot() {
        Map<String, Object> m = new LinkedHashMap<>();
        errors.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .forEach(e -> m.put(e.getKey(), e.getValue().get()));
        return m;
    }

    private void onStall(String dump) {
        results.put("stalled", true);
        results.put("stallDump", dump);
        results.put("stallPhase", currentPhase);
        try {
            writeResults();
        } catch (Exception e) {
            e.printStackTrace();
        }
    }

    private synchronized void writeResults() throws IOException {
        results.put("errors", errorsSnapshot());
        Files.writeString(out, Json.write(results), StandardCharsets.UTF_8);
        if (!errorStacks.isEmpty()) {
            StringBuilder sb = new StringBuilder();
            errorStacks.forEach((k, v) -> sb.append("== ").append(k).append('\n').append(v).append('\n'));
            Files.writeString(
                    out.resolveSibling(out.getFileName().toString().replace(".json", "") + "-errors.txt"),
                    sb.toString(),
                    StandardCharsets.UTF_8);
        }
    }

    static Map<String, Object> stats(List<Double> values) {
        List<Double> v;
        synchronized (values) {
            v = new ArrayList<>(values);
        }
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("n", v.size());
        if (v.isEmpty()) {
            return s;
        }
        v.sort(Comparator.naturalOrder());
        s.put("p50", round1(pct(v, 50)));
        s.put("p99", round1(pct(v, 99)));
        s.put("max", round1(v.get(v.size() - 1)));
        s.put("mean", round1(v.stream().mapToDouble(Double::doubleValue).average().orElse(0)));
        return s;
    }

    /** Nearest-rank percentile of sorted values. */
    private static double pct(List<Double> sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    private static double round1(double d) {
        return Math.round(d * 10) / 10.0;
    }

    private static String req(Map<String, String> args, String name) {
        String v = args.get(name);
        if (v == null) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return v;
    }

    private static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path f : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(f);
            }
        }
    }
}
