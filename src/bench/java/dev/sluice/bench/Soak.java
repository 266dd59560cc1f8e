package dev.sluice.bench;

import static dev.sluice.bench.Measure.f;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.engine.ContainerException;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.sandbox.ContainerSpec;
import dev.sluice.container.sandbox.Labels;
import dev.sluice.testsupport.ExpectedStream;
import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.TestDocker;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;

/**
 * The load a control plane sends, against the packaged worker started the way
 * users start it: rounds of dispatches that all finish together, each printing
 * 1 MiB (or 4 MiB), while orphaned containers (labelled as ours, with no
 * record) wait on the engine to be reaped in the middle of the burst. Every
 * result must be stored and delivered, and its stdout is held byte for byte
 * (length and SHA-256 of its digest, and its text) to the stream its process
 * printed: a result that is short or wrong without saying so fails the run,
 * one that says it lost output ({@code output_incomplete}) is reported. None
 * may fail otherwise, readiness must be UP after every round, and a plain
 * dispatch must still succeed at the end.
 * {@code scripts/soak.sh} runs it; {@code SoakIT} runs a round of each size
 * ({@link Plan#SUITE}), or the bounded plan with {@code -Dsluice.soak.bounded=true}.
 */
public final class Soak {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** How many rounds of each size, and how big a round is. */
    public record Plan(String name, int roundsOf1MiB, int roundsOf4MiB, int dispatches, int orphans) {

        public static final Plan BOUNDED = new Plan("bounded", 2, 1, 50, 20);
        /** The suite's (SoakIT): a round of each size, each as big as the bounded run's. */
        public static final Plan SUITE = new Plan("suite", 1, 1, 50, 20);

        public static final Plan LONG = new Plan("long", 15, 5, 50, 57);

        int rounds() {
            return roundsOf1MiB + roundsOf4MiB;
        }
    }

    /**
     * What one round did. Every delivered result's stdout is held to the
     * stream its process printed ({@code output}); {@code failed} counts the
     * results that did not succeed for any other reason than an honestly
     * reported loss, and those whose stderr (empty) claimed otherwise.
     */
    public record Round(
            int number,
            long bytesEach,
            int submitted,
            int delivered,
            int failed,
            OutputTally output,
            List<String> failures,
            double seconds,
            double slowestSeconds,
            boolean readyAfter,
            int orphansLeft,
            double rssMib) {

        /** Results whose stdout digest has fewer bytes than the process printed. */
        public int shortResults() {
            return output.shortCount();
        }

        /** Results whose stdout digest is not the stream's SHA-256 (or whose text returned whole is not it). */
        public int wrongResults() {
            return output.wrong();
        }

        /** Short or wrong without saying so: a result claiming a completeness it does not have. */
        public int claimedCompleteButShort() {
            return output.claimedComplete();
        }

        /** Short or wrong and saying so (output_incomplete): reported, not (yet) failed. */
        public int honestlyIncomplete() {
            return output.honestIncomplete();
        }

        public Map<String, Integer> witnessStates() {
            return output.witnessStates();
        }

        public boolean clean() {
            return delivered == submitted
                    && output.claimedComplete() == 0
                    && failed == 0
                    && readyAfter
                    && orphansLeft == 0;
        }

        String markdown() {
            return "| " + number + " | " + (bytesEach >> 20) + " MiB | " + submitted + " | " + delivered + " | "
                    + output.exact() + " | " + output.shortCount() + " | " + output.wrong() + " | "
                    + bold(output.claimedComplete()) + " | " + output.honestIncomplete() + " | " + bold(failed)
                    + " | " + output.witnessSummary() + " | " + f(seconds) + " s | " + f(slowestSeconds) + " s | "
                    + (readyAfter ? "UP" : "**DOWN**") + " | " + orphansLeft + " | " + f(rssMib) + " MiB |";
        }

        private static String bold(int n) {
            return n == 0 ? "0" : "**" + n + "**";
        }
    }

    /** Every round, and whether a plain dispatch still succeeded after them. */
    public record Report(Plan plan, List<Round> rounds, boolean finalDispatchSucceeded, double idleRssMib) {

        public boolean clean() {
            return finalDispatchSucceeded && rounds.stream().allMatch(Round::clean);
        }

        public String markdown() {
            StringBuilder t = new StringBuilder("soak (" + plan.name() + "): " + plan.rounds() + " rounds of "
                    + plan.dispatches() + " dispatches finishing together, " + plan.orphans()
                    + " orphans to reap in each; idle RSS " + f(idleRssMib) + " MiB\n\n"
                    + "Each result's stdout is checked against the stream its process printed (length and SHA-256,"
                    + " computed here): exact; short (digest bytes < printed); wrong (digest SHA-256 differs, or the"
                    + " text returned whole differs); claimed complete but short/wrong (fails the run); incomplete"
                    + " (short or wrong and the result says so: reported); failed (any other status than"
                    + " succeeded); the witness states the results carry.\n\n"
                    + HEADER);
            rounds.forEach(r -> t.append(r.markdown()).append('\n'));
            t.append("\nplain dispatch after the rounds: ").append(finalDispatchSucceeded ? "succeeded" : "**failed**");
            t.append('\n');
            for (Round r : rounds) {
                String details = r.output().details();
                if (!details.isEmpty() || !r.failures().isEmpty()) {
                    t.append("\nround ").append(r.number()).append(":\n").append(details);
                    r.failures()
                            .forEach(f -> t.append("- **failed**: ").append(f).append('\n'));
                }
            }
            return t.toString();
        }
    }

    static final String HEADER = "| round | output each | submitted | delivered | exact | short | wrong"
            + " | claimed complete but short/wrong | incomplete (said so) | failed | witness states | round time"
            + " | slowest | readiness after | orphans left | worker RSS after |\n"
            + "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";

    private Soak() {}

    public static void main(String[] args) throws Exception {
        List<String> flags = Arrays.asList(args);
        Plan plan = flags.contains("--long") ? Plan.LONG : Plan.BOUNDED;
        int rounds = flags.indexOf("--rounds");
        if (rounds >= 0) {
            // --rounds A,B: A rounds of 1 MiB results, then B of 4 MiB
            String[] ab = flags.get(rounds + 1).split(",");
            plan = new Plan(
                    "custom", Integer.parseInt(ab[0]), Integer.parseInt(ab[1]), plan.dispatches(), plan.orphans());
        }
        Report report = run(plan);
        System.out.print(report.markdown());
        Files.writeString(Path.of("target/soak-report.md"), report.markdown());
        if (!report.clean()) {
            System.exit(1);
        }
    }

    public static Report run(Plan plan) throws Exception {
        Map<String, String> env = WorkerProcess.baseEnvironment(WorkerProcess.freshDataDir("soak"), "soak");
        // Orphans are reaped as soon as they are seen, in the middle of each burst.
        env.put("SLUICE_WORKER_ORPHAN_GRACE", "1s");
        env.put("SLUICE_DISPATCH_REAPER_INTERVAL", "1s");
        env.put("SLUICE_CONTAINER_RETENTION", "10s");
        List<Round> rounds = new ArrayList<>();
        ExecutorService submitters = Executors.newFixedThreadPool(plan.dispatches());
        try (Receiver receiver = Receiver.on("127.0.0.1");
                DockerClients clients = TestDocker.clients();
                WorkerProcess worker = WorkerProcess.startAsShipped(env)) {
            ContainerRuntime engine = new ContainerRuntime(clients, TestDocker.containerConfig());
            Thread.sleep(2000);
            double idleRss = Measure.rssMib(worker.pid());
            System.out.print(HEADER);
            for (int n = 1; n <= plan.rounds(); n++) {
                long bytes = n <= plan.roundsOf1MiB() ? 1L << 20 : 4L << 20;
                Round round = round(n, bytes, plan, worker, receiver, engine, submitters);
                System.out.println(round.markdown());
                rounds.add(round);
            }
            JsonNode last = worker.awaitTerminal(worker.submit(WorkerClient.script("echo ok")), Duration.ofMinutes(2));
            boolean ok = "succeeded".equals(last.path("status").asText())
                    && ExpectedStream.of("ok\n")
                            .check(last.path("result"), "stdout")
                            .isExact();
            return new Report(plan, rounds, ok, idleRss);
        } finally {
            submitters.shutdownNow();
        }
    }

    private static Round round(
            int number,
            long bytes,
            Plan plan,
            WorkerProcess worker,
            Receiver receiver,
            ContainerRuntime engine,
            ExecutorService submitters)
            throws Exception {
        // Created side by side, so that all of them are there when the burst starts, not the first reaped before.
        List<Future<String>> created = new ArrayList<>();
        for (int i = 0; i < plan.orphans(); i++) {
            String dispatchId = "orphan-" + number + "-" + i;
            created.add(submitters.submit(() -> orphan(engine, dispatchId)));
        }
        Set<String> orphans = new HashSet<>();
        for (Future<String> orphan : created) {
            String id = orphan.get();
            if (id != null) {
                orphans.add(id);
            }
        }
        // Everything sleeps past the submission of the last, so all finish together.
        String script = "sleep 3; head -c " + bytes + " /dev/zero | tr '\\000' x";
        ExpectedStream printed = ExpectedStream.filled('x', bytes);
        Instant start = Instant.now();
        List<Future<String>> ids = new ArrayList<>();
        for (int i = 0; i < plan.dispatches(); i++) {
            ids.add(submitters.submit(() -> {
                Map<String, Object> request = new HashMap<>(WorkerClient.script(script));
                request.put("callbackUrl", receiver.url("/soak"));
                return worker.submit(request);
            }));
        }
        Set<String> submitted = new HashSet<>();
        for (Future<String> id : ids) {
            submitted.add(id.get());
        }
        Map<String, Instant> deliveredAt = new HashMap<>();
        OutputTally output = new OutputTally();
        List<String> failures = new ArrayList<>();
        Instant deadline = start.plus(Duration.ofMinutes(10));
        while (deliveredAt.size() < submitted.size() && Instant.now().isBefore(deadline) && worker.alive()) {
            for (Receiver.Request r : receiver.requests()) {
                String id = r.header("webhook-id").substring("msg_".length());
                if (submitted.contains(id) && !deliveredAt.containsKey(id)) {
                    deliveredAt.put(id, r.at());
                    check(id, r, printed, output, failures);
                }
            }
            Thread.sleep(100);
        }
        double seconds = Duration.between(start, Instant.now()).toMillis() / 1000.0;
        double slowest = deliveredAt.values().stream()
                .mapToDouble(at -> Duration.between(start, at).toMillis() / 1000.0)
                .max()
                .orElse(Double.NaN);
        if (!worker.alive()) {
            throw new IllegalStateException("the worker died in round " + number + "; see " + worker.logPath());
        }
        boolean ready = worker.probeStatus("/q/health/ready") == 200;
        Instant reaped = Instant.now().plus(Duration.ofSeconds(30));
        long left;
        do {
            left = engine.managed().stream()
                    .filter(c -> orphans.contains(c.id()))
                    .count();
            if (left > 0) {
                Thread.sleep(500);
            }
        } while (left > 0 && Instant.now().isBefore(reaped));
        return new Round(
                number,
                bytes,
                submitted.size(),
                deliveredAt.size(),
                failures.size(),
                output,
                List.copyOf(failures),
                seconds,
                slowest,
                ready,
                (int) left,
                Measure.rssMib(worker.pid()));
    }

    /** A container labelled as the worker's with no record: its id, or null when the worker reaped it already. */
    private static String orphan(ContainerRuntime engine, String dispatchId) {
        try {
            return engine.create(new ContainerSpec(
                    TestDocker.AGENT_IMAGE,
                    List.of("true"),
                    Map.of(),
                    null,
                    false,
                    Map.of(Labels.DISPATCH_ID, dispatchId, Labels.WORKER_ID, "soak"),
                    16L << 20,
                    0,
                    16,
                    "none",
                    null,
                    null));
        } catch (ContainerException e) {
            if (e.reason() != ContainerException.Reason.NOT_FOUND) {
                throw e;
            }
            // The worker reaped it before its out-directory was added: what it was made for.
            return null;
        }
    }

    /**
     * Holds a delivered result's stdout to the stream its process printed, and
     * its stderr to the empty one. A result that did not succeed is a failure
     * unless it honestly reports lost output (counted in {@code output}).
     */
    private static void check(
            String id, Receiver.Request delivery, ExpectedStream printed, OutputTally output, List<String> failures) {
        JsonNode result;
        try {
            result = JSON.readTree(delivery.decodedBody());
        } catch (IOException e) {
            output.add(id, printed.check(JSON.createObjectNode(), "stdout"));
            failures.add(id + " delivered a body that is not JSON: " + e.getMessage());
            return;
        }
        ExpectedStream.Verdict stdout = output.add(id, printed.check(result, "stdout"));
        ExpectedStream.Verdict stderr = ExpectedStream.EMPTY.check(result, "stderr");
        String status = result.path("status").asText();
        if (!"succeeded".equals(status) && !stdout.honestlyIncomplete()) {
            failures.add(id + " " + status + " " + result.path("error") + "; " + stdout.describe());
        } else if (stderr.claimsCompletenessFalsely()) {
            failures.add(id + " " + stderr.describe());
        }
    }
}
