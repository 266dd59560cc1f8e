package dev.sluice.bench;

import static dev.sluice.bench.Measure.f;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sluice.container.sandbox.ContainerConfig;
import dev.sluice.container.sandbox.Labels;
import dev.sluice.record.DispatchConfig;
import dev.sluice.testsupport.ExpectedStream;
import dev.sluice.testsupport.TestDocker;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;
import io.quarkus.runtime.configuration.MemorySizeConverter;
import io.smallrye.config.WithDefault;

/**
 * Many containers each printing 4 MiB and exiting together: the load under
 * which the engine closes a container's pipes about 2 s after the exit and
 * drops what its copy had not read yet. Runs rounds of concurrent dispatches
 * against the packaged worker started as shipped (its defaults, its caps, the
 * embedded store), polls each record until it is terminal, and holds every
 * result's stdout to the stream the process printed, byte for byte (computed
 * here from the producer). Then, in the same run, rounds of as many concurrent
 * {@code docker run} of the same image and producer with the worker's
 * hardening, attached, their stdout counted and hashed as it arrives. Prints
 * both side by side (also written to target/load-4m-report.md); exits 1 when a
 * Sluice result is short or wrong without saying so, failed for another reason
 * than an honestly reported loss, or had none within the deadline.
 * {@code bench/load-4m.sh} runs it.
 */
public final class Load4m {

    private static final ObjectMapper JSON = new ObjectMapper();

    static final String LINE = "load line 0123456789 abcdefghij";
    static final long BYTES = 4L << 20;
    static final String SCRIPT = "sleep 1; yes '" + LINE + "' | head -c " + BYTES;

    /** The worker's id, and so the label its containers carry: how they are found and removed. */
    static final String WORKER_ID = "load-4m";
    /** The label of this harness's {@code docker run} containers. */
    static final String CLI_LABEL = "dev.sluice.bench";

    static final String CLI_LABEL_VALUE = "load-4m";

    /** How big a run is, and how long one dispatch may take before it counts as without a result. */
    record Options(int rounds, int concurrency, int cliRounds, Duration deadline) {

        static Options parse(String[] args) {
            List<String> a = Arrays.asList(args);
            return new Options(
                    intOption(a, "--rounds", 5),
                    intOption(a, "--concurrency", 50),
                    intOption(a, "--cli-rounds", 3),
                    Duration.ofSeconds(intOption(a, "--deadline", 180)));
        }

        private static int intOption(List<String> args, String name, int otherwise) {
            int i = args.indexOf(name);
            if (i < 0) {
                return otherwise;
            }
            if (i + 1 >= args.size()) {
                throw new IllegalArgumentException(name + " needs a number");
            }
            int n = Integer.parseInt(args.get(i + 1));
            if (n < 0 || (n == 0 && !name.equals("--cli-rounds") && !name.equals("--rounds"))) {
                throw new IllegalArgumentException(name + " must be positive");
            }
            return n;
        }
    }

    /** One round of one side: the stdout tally, what ended without a result, the statuses, the makespan. */
    record Round(
            String side,
            int number,
            int started,
            OutputTally output,
            int noResult,
            Map<String, Integer> statuses,
            List<String> notes,
            double seconds) {

        String markdown() {
            return "| " + side + " | " + number + " | " + started + " | " + output.exact() + " | "
                    + output.shortCount() + " | " + output.wrong() + " | " + output.claimedComplete() + " | "
                    + output.honestIncomplete() + " | " + noResult + " | " + statuses + " | "
                    + (side.equals(SLUICE) ? output.witnessSummary() : "n/a") + " | " + output.bytesMissing()
                    + " | " + f(seconds) + " s |";
        }
    }

    static final String SLUICE = "Sluice";
    static final String CLI = "docker run";

    private Load4m() {}

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        ExpectedStream printed = ExpectedStream.repeatedLine(LINE, BYTES);
        String run = UUID.randomUUID().toString().substring(0, 8);
        List<Round> sluice = new ArrayList<>();
        List<Round> cli = new ArrayList<>();
        Instant begun = Instant.now();
        try {
            if (options.rounds() > 0) {
                sluice.addAll(sluiceRounds(options, printed));
            }
            for (int n = 1; n <= options.cliRounds(); n++) {
                Round round = cliRound(n, options, printed, run);
                System.out.println(round.markdown());
                cli.add(round);
            }
        } finally {
            removeContainers("label=" + Labels.WORKER_ID + "=" + WORKER_ID);
            removeContainers("label=" + CLI_LABEL + "=" + CLI_LABEL_VALUE);
        }
        String report = report(options, printed, sluice, cli, Duration.between(begun, Instant.now()));
        System.out.print("\n" + report);
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target/load-4m-report.md"), report);
        boolean falseClaims = sluice.stream()
                .anyMatch(r -> r.output().claimedComplete() > 0 || !r.notes().isEmpty());
        System.exit(falseClaims ? 1 : 0);
    }

    // ------------------------------------------------------------------ Sluice

    private static List<Round> sluiceRounds(Options options, ExpectedStream printed) throws Exception {
        Map<String, String> env = WorkerProcess.baseEnvironment(WorkerProcess.freshDataDir("load-4m"), WORKER_ID);
        // As shipped: the test settings of memory, stop grace and reconciliation go; the callback ones stay unused.
        env.remove("SLUICE_DISPATCH_DEFAULT_MEMORY");
        env.remove("SLUICE_DISPATCH_STOP_GRACE");
        env.remove("SLUICE_WORKER_RECONCILE_INTERVAL");
        env.put("QUARKUS_LOG_LEVEL", "WARN");
        List<Round> rounds = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(options.concurrency());
        try (WorkerProcess worker = WorkerProcess.startAsShipped(env)) {
            System.out.println("worker log: " + worker.logPath());
            // Not counted: a warm worker, past its first dispatch.
            worker.awaitTerminal(worker.submit(WorkerClient.script("true")), Duration.ofMinutes(2));
            System.out.print(HEADER);
            for (int n = 1; n <= options.rounds(); n++) {
                Round round = sluiceRound(n, options, printed, worker, pool);
                System.out.println(round.markdown());
                rounds.add(round);
                if (!worker.alive()) {
                    throw new IllegalStateException("the worker died in round " + n + "; see " + worker.logPath());
                }
                // The next round starts on an engine without this one's containers, as the CLI's rounds do.
                removeContainers("label=" + Labels.WORKER_ID + "=" + WORKER_ID);
            }
        } finally {
            pool.shutdownNow();
        }
        return rounds;
    }

    private static Round sluiceRound(
            int number, Options options, ExpectedStream printed, WorkerProcess worker, ExecutorService pool)
            throws Exception {
        OutputTally output = new OutputTally();
        Map<String, Integer> statuses = new TreeMap<>();
        List<String> notes = new ArrayList<>();
        int[] noResult = {0};
        Instant start = Instant.now();
        Instant[] last = {start};
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < options.concurrency(); i++) {
            done.add(pool.submit(() -> {
                Map<String, Object> request = new HashMap<>(WorkerClient.script(SCRIPT));
                request.put("timeout", "PT" + options.deadline().toSeconds() + "S");
                String id;
                try {
                    id = worker.submit(request);
                } catch (IOException | AssertionError e) {
                    synchronized (notes) {
                        noResult[0]++;
                        notes.add("not accepted: " + e.getMessage());
                    }
                    return null;
                }
                JsonNode record = awaitTerminal(worker, id, options.deadline().plusSeconds(60));
                Instant at = Instant.now();
                synchronized (notes) {
                    if (at.isAfter(last[0])) {
                        last[0] = at;
                    }
                    if (record == null) {
                        noResult[0]++;
                        notes.add(id + " not terminal within "
                                + options.deadline().plusSeconds(60));
                        return null;
                    }
                    statuses.merge(record.path("status").asText(), 1, Integer::sum);
                }
                JsonNode result = record.path("result");
                ExpectedStream.Verdict stdout = output.add(id, printed.check(result, "stdout"));
                ExpectedStream.Verdict stderr = ExpectedStream.EMPTY.check(result, "stderr");
                String status = record.path("status").asText();
                synchronized (notes) {
                    if (!"succeeded".equals(status) && !stdout.honestlyIncomplete()) {
                        notes.add(id + " " + status + " " + result.path("error") + "; " + stdout.describe());
                    } else if (stderr.claimsCompletenessFalsely()) {
                        notes.add(id + " " + stderr.describe());
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        double seconds = Duration.between(start, last[0]).toMillis() / 1000.0;
        return new Round(SLUICE, number, options.concurrency(), output, noResult[0], statuses, notes, seconds);
    }

    private static final Set<String> TERMINAL = Set.of("succeeded", "failed", "timed_out", "cancelled", "error");

    /** Polls the record every 500 ms until it is terminal; null when it is not within {@code within}. */
    private static JsonNode awaitTerminal(WorkerClient worker, String id, Duration within) throws InterruptedException {
        Instant deadline = Instant.now().plus(within);
        while (Instant.now().isBefore(deadline)) {
            try {
                JsonNode record = worker.record(id);
                if (TERMINAL.contains(record.path("status").asText())) {
                    return record;
                }
            } catch (IOException e) {
                // busy or briefly unreachable: ask again
            }
            Thread.sleep(500);
        }
        return null;
    }

    // --------------------------------------------------------------------- CLI

    /**
     * The {@code docker run} options the worker gives its containers by
     * default (ContainerRuntime, with the defaults of ContainerConfig and
     * DispatchConfig read from their declarations, so they cannot drift):
     * no capabilities, no new privileges, a read-only root with tmpfs work
     * areas owned by the user, an init, no network, json-file logs rotated as
     * shipped, the default memory, CPU and pids limits. The worker's
     * out-directory volume is left out: nothing here writes to it.
     */
    static List<String> hardening() {
        String user = shipped(ContainerConfig.class, "user");
        String[] ids = user.split(":");
        String owner = ",uid=" + ids[0] + ",gid=" + (ids.length > 1 ? ids[1] : ids[0]);
        String workDir = shipped(ContainerConfig.class, "workDir");
        long memory = bytes(shipped(DispatchConfig.class, "defaultMemory"));
        List<String> flags = new ArrayList<>(List.of(
                "--network",
                "none",
                "--init",
                "--read-only",
                "--cap-drop",
                "ALL",
                "--security-opt",
                "no-new-privileges",
                "--user",
                user,
                "--workdir",
                workDir,
                "--tmpfs",
                workDir + ":rw,nosuid,nodev,mode=1777,size=" + bytes(shipped(ContainerConfig.class, "workSize"))
                        + owner,
                "--tmpfs",
                "/tmp:rw,nosuid,nodev,mode=1777,size=" + bytes(shipped(ContainerConfig.class, "tmpSize")) + owner,
                "--log-driver",
                shipped(ContainerConfig.class, "logDriver"),
                "--log-opt",
                "max-size=" + bytes(shipped(ContainerConfig.class, "logMaxSize")),
                "--log-opt",
                "max-file=" + shipped(ContainerConfig.class, "logMaxFiles"),
                "--log-opt",
                "compress=" + shipped(ContainerConfig.class, "logCompress"),
                "--memory",
                Long.toString(memory),
                "--memory-swap",
                Long.toString(memory),
                "--cpus",
                shipped(DispatchConfig.class, "defaultCpus"),
                "--pids-limit",
                shipped(DispatchConfig.class, "defaultPids")));
        return flags;
    }

    /** A setting's shipped default, as its declaration states it. */
    static String shipped(Class<?> config, String setting) {
        try {
            Method m = config.getMethod(setting);
            WithDefault d = m.getAnnotation(WithDefault.class);
            if (d == null) {
                throw new IllegalStateException(config.getSimpleName() + "." + setting + " has no default");
            }
            return d.value();
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(config.getSimpleName() + " has no " + setting, e);
        }
    }

    private static long bytes(String size) {
        return new MemorySizeConverter().convert(size).asLongValue();
    }

    private static Round cliRound(int number, Options options, ExpectedStream printed, String run) throws Exception {
        List<String> flags = hardening();
        OutputTally output = new OutputTally();
        Map<String, Integer> statuses = new TreeMap<>();
        List<String> notes = new ArrayList<>();
        List<String> names = new ArrayList<>();
        int[] noResult = {0};
        ExecutorService pool = Executors.newFixedThreadPool(options.concurrency());
        ExecutorService stderrReaders = Executors.newFixedThreadPool(options.concurrency());
        ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor();
        Instant start = Instant.now();
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < options.concurrency(); i++) {
                String name = "load-4m-" + run + "-" + number + "-" + i;
                names.add(name);
                done.add(pool.submit(() -> {
                    List<String> command = new ArrayList<>(
                            List.of("docker", "run", "--name", name, "--label", CLI_LABEL + "=" + CLI_LABEL_VALUE));
                    command.addAll(flags);
                    command.addAll(List.of(TestDocker.AGENT_IMAGE, "sh", "-c", SCRIPT));
                    Process p = new ProcessBuilder(command)
                            .redirectError(ProcessBuilder.Redirect.PIPE)
                            .start();
                    AtomicBoolean late = new AtomicBoolean();
                    ScheduledFuture<?> kill = watchdog.schedule(
                            () -> {
                                late.set(true);
                                p.destroyForcibly();
                                removeContainers(name);
                            },
                            options.deadline().toSeconds(),
                            TimeUnit.SECONDS);
                    // stderr on a thread of its own, so a chatty CLI never blocks its stdout
                    Future<String> err = stderrReaders.submit(() -> head(p.getErrorStream(), 4096));
                    long count = 0;
                    MessageDigest sha = sha256();
                    byte[] buffer = new byte[64 * 1024];
                    try (InputStream out = p.getInputStream()) {
                        for (int n; (n = out.read(buffer)) >= 0; ) {
                            sha.update(buffer, 0, n);
                            count += n;
                        }
                    }
                    boolean exited = p.waitFor(30, TimeUnit.SECONDS);
                    kill.cancel(false);
                    String stderr = err.get(30, TimeUnit.SECONDS).trim();
                    synchronized (notes) {
                        if (late.get() || !exited) {
                            noResult[0]++;
                            notes.add(name + " not done within " + options.deadline());
                            return null;
                        }
                        statuses.merge("exit " + p.exitValue(), 1, Integer::sum);
                        if (!stderr.isEmpty()) {
                            notes.add(name + " stderr: " + stderr);
                        }
                    }
                    // docker run has no way to say it lost bytes: an exit of 0 claims the whole stream.
                    output.add(name, printed.check(cliResult(p.exitValue(), count, sha), "stdout"));
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            watchdog.shutdownNow();
            pool.shutdownNow();
            stderrReaders.shutdownNow();
            removeContainers(names.toArray(String[]::new));
        }
        double seconds = Duration.between(start, Instant.now()).toMillis() / 1000.0;
        return new Round(CLI, number, options.concurrency(), output, noResult[0], statuses, notes, seconds);
    }

    /** The first {@code limit} bytes of a stream read to its end, as text. */
    private static String head(InputStream in, int limit) throws IOException {
        byte[] kept = in.readNBytes(limit);
        in.transferTo(OutputStream.nullOutputStream());
        return new String(kept, StandardCharsets.UTF_8);
    }

    /** What a {@code docker run} gave, in the shape of a result, so it is checked as a result is. */
    private static JsonNode cliResult(int exit, long bytes, MessageDigest sha) {
        ObjectNode result = JSON.createObjectNode();
        result.put("status", exit == 0 ? "succeeded" : "failed");
        result.put("exitCode", exit);
        ObjectNode digest = result.putObject("stdoutDigest");
        digest.put("sha256", HexFormat.of().formatHex(sha.digest()));
        digest.put("bytes", bytes);
        return result;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    // ------------------------------------------------------------------ engine

    /**
     * Removes containers, with their anonymous volumes: by name, or every one
     * matching a {@code label=...} filter. Best effort: what is already gone is
     * not an error.
     */
    static void removeContainers(String... namesOrFilter) {
        try {
            List<String> targets = new ArrayList<>();
            if (namesOrFilter.length == 1 && namesOrFilter[0].startsWith("label=")) {
                Process ps = new ProcessBuilder("docker", "ps", "-aq", "--filter", namesOrFilter[0])
                        .redirectError(ProcessBuilder.Redirect.DISCARD)
                        .start();
                String ids = new String(ps.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                ps.waitFor(60, TimeUnit.SECONDS);
                ids.lines().filter(l -> !l.isBlank()).forEach(targets::add);
            } else {
                targets.addAll(List.of(namesOrFilter));
            }
            for (int i = 0; i < targets.size(); i += 50) {
                List<String> command = new ArrayList<>(List.of("docker", "rm", "-f", "-v"));
                command.addAll(targets.subList(i, Math.min(targets.size(), i + 50)));
                Process rm = new ProcessBuilder(command)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .redirectError(ProcessBuilder.Redirect.DISCARD)
                        .start();
                if (!rm.waitFor(120, TimeUnit.SECONDS)) {
                    rm.destroyForcibly();
                }
            }
        } catch (IOException e) {
            System.err.println("could not remove containers: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ------------------------------------------------------------------ report

    static final String HEADER = "| side | round | dispatched | exact | short | wrong"
            + " | claimed complete but short/wrong | said incomplete | no result | statuses | witness states"
            + " | bytes missing | makespan |\n"
            + "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";

    private static String report(
            Options options, ExpectedStream printed, List<Round> sluice, List<Round> cli, Duration took) {
        OutputTally s = total(sluice);
        OutputTally c = total(cli);
        int sNo = sluice.stream().mapToInt(Round::noResult).sum();
        int cNo = cli.stream().mapToInt(Round::noResult).sum();
        double sSeconds = Measure.median(sluice.stream().map(Round::seconds).toList());
        double cSeconds = Measure.median(cli.stream().map(Round::seconds).toList());
        StringBuilder t = new StringBuilder();
        t.append("load-4m: ")
                .append(options.concurrency())
                .append(" at once, each `sh -c \"")
                .append(SCRIPT)
                .append("\"` (")
                .append(printed.bytes())
                .append(" bytes, sha256 ")
                .append(printed.sha256(), 0, 16)
                .append("…); Sluice: the packaged worker as shipped, results polled from GET /v1/dispatches/{id};")
                .append(" CLI: attached `docker run` with the worker's hardening (")
                .append(String.join(" ", hardening()))
                .append("); per-dispatch deadline ")
                .append(options.deadline().toSeconds())
                .append(" s; ")
                .append(host())
                .append("; took ")
                .append(took.toSeconds())
                .append(" s\n\n")
                .append(
                        "short: the stdout digest (CLI: the bytes read) has fewer bytes than printed; wrong: its SHA-256")
                .append(" is not the printed stream's (or the text returned whole differs); claimed complete but")
                .append(" short/wrong: short or wrong without saying so (a `docker run` exiting 0 says nothing);")
                .append(" said incomplete: short or wrong with `output_incomplete`.\n\n")
                .append(
                        "| side | rounds × at once | results | exact | short | wrong | claimed complete but short/wrong")
                .append(" | said incomplete | no result | witness states | bytes missing | makespan (median) |\n")
                .append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
                .append(totalRow(SLUICE + " (worker as shipped)", sluice.size(), options, s, sNo, true, sSeconds))
                .append(totalRow(CLI + " (same flags)", cli.size(), options, c, cNo, false, cSeconds))
                .append("\n")
                .append("| ratio Sluice / CLI | short (share of results) | claimed complete but short/wrong (share)")
                .append(" | makespan |\n| --- | --- | --- | --- |\n")
                .append("| | ")
                .append(ratio(share(s.shortCount(), s.results()), share(c.shortCount(), c.results())))
                .append(" | ")
                .append(ratio(share(s.claimedComplete(), s.results()), share(c.claimedComplete(), c.results())))
                .append(" | ")
                .append(ratio(sSeconds, cSeconds))
                .append(" |\n\n")
                .append(HEADER);
        sluice.forEach(r -> t.append(r.markdown()).append('\n'));
        cli.forEach(r -> t.append(r.markdown()).append('\n'));
        for (Round r : concat(sluice, cli)) {
            String details = r.output().details();
            if (!details.isEmpty() || !r.notes().isEmpty()) {
                t.append("\n")
                        .append(r.side())
                        .append(" round ")
                        .append(r.number())
                        .append(":\n");
                t.append(details);
                r.notes().forEach(n -> t.append("- ").append(n).append('\n'));
            }
        }
        return t.toString();
    }

    private static List<Round> concat(List<Round> a, List<Round> b) {
        List<Round> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static OutputTally total(List<Round> rounds) {
        OutputTally total = new OutputTally();
        rounds.forEach(r -> total.addAll(r.output()));
        return total;
    }

    private static String totalRow(
            String side, int rounds, Options options, OutputTally t, int noResult, boolean witnesses, double seconds) {
        return "| " + side + " | " + rounds + " × " + options.concurrency() + " | " + t.results() + " | " + t.exact()
                + " | " + t.shortCount() + " (" + percent(t.shortCount(), t.results()) + ") | " + t.wrong() + " | "
                + t.claimedComplete() + " (" + percent(t.claimedComplete(), t.results()) + ") | "
                + t.honestIncomplete() + " | " + noResult + " | " + (witnesses ? t.witnessSummary() : "n/a") + " | "
                + t.bytesMissing() + " | " + (Double.isNaN(seconds) ? "–" : f(seconds) + " s") + " |\n";
    }

    private static double share(int n, int of) {
        return of == 0 ? Double.NaN : (double) n / of;
    }

    private static String percent(int n, int of) {
        return of == 0 ? "–" : String.format(Locale.ROOT, "%.1f %%", 100.0 * n / of);
    }

    private static String ratio(double a, double b) {
        if (Double.isNaN(a) || Double.isNaN(b)) {
            return "–";
        }
        if (b == 0) {
            return a == 0 ? "both 0" : String.format(Locale.ROOT, "%.3f vs 0", a);
        }
        return f(a / b) + "×";
    }

    /** The machine the figures are of. */
    private static String host() {
        String cpus = Runtime.getRuntime().availableProcessors() + " CPUs";
        try {
            Process v = new ProcessBuilder("docker", "version", "--format", "{{.Server.Version}}")
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            String engine = new String(v.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            v.waitFor(30, TimeUnit.SECONDS);
            return cpus + ", engine " + engine;
        } catch (IOException e) {
            return cpus;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return cpus;
        }
    }
}
