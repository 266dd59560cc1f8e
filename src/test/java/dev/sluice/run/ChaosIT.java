package dev.sluice.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.testsupport.ExpectedStream;
import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.TestDocker;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;

/**
 * Dispatches of mixed length and output while the worker is killed with
 * SIGKILL at random moments and started again; a recording receiver is the
 * ledger. At quiescence: every accepted dispatch has a delivered (or
 * dead-lettered) result, every delivery of one dispatch carries the same body,
 * results are the ones their processes earned (status, exit code, and both
 * streams byte for byte: the digests' length and SHA-256 against what the
 * process printed, computed here, and the text when returned whole), and no
 * container outlives its retention. The suite runs 24 dispatches and 3 kills
 * (the pom's chaos.dispatches and chaos.kills); scripts/chaos.sh runs 40 and 5,
 * scripts/chaos.sh --long 200 dispatches and 25 kills.
 */
class ChaosIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final int dispatches = Integer.getInteger("chaos.dispatches", 24);
    private final int kills = Integer.getInteger("chaos.kills", 3);
    private final long seed = Long.getLong("chaos.seed", System.currentTimeMillis());

    /** A kind of dispatch, with what its result must say and the streams its process prints. */
    private record Kind(String script, String status, int exitCode, ExpectedStream stdout, ExpectedStream stderr) {

        Kind(String script, String status, int exitCode, String stdout, String stderr) {
            this(script, status, exitCode, ExpectedStream.of(stdout), ExpectedStream.of(stderr));
        }
    }

    private static final List<Kind> KINDS = List.of(
            new Kind("echo quick", "succeeded", 0, "quick\n", ""),
            new Kind("seq 1 2000 | tail -n 1; sleep 1", "succeeded", 0, "2000\n", ""),
            new Kind("sleep 4; echo slow", "succeeded", 0, "slow\n", ""),
            new Kind("echo about to fail >&2; exit 7", "failed", 7, "", "about to fail\n"),
            // Over the 64K cap: only the digests can show the stream was whole.
            new Kind(
                    "head -c 3000000 /dev/zero | tr '\\000' x; echo",
                    "succeeded",
                    0,
                    ExpectedStream.of("x".repeat(3_000_000) + "\n"),
                    ExpectedStream.EMPTY));

    @Test
    void nothingIsLostWhenTheWorkerIsKilledAtRandom() throws Exception {
        Random random = new Random(seed);
        Path data = WorkerProcess.freshDataDir("chaos");
        Map<String, String> env = WorkerProcess.baseEnvironment(data, "chaos");
        // Kept only until it is known the reaper removes what has ended: the reaper never takes a container whose
        // dispatch is unfinished, so a shorter retention spares no result a restarted worker still has to read.
        env.put("SLUICE_CONTAINER_RETENTION", "2s");
        env.put("SLUICE_DISPATCH_REAPER_INTERVAL", "1s");
        env.put("SLUICE_WORKER_RECONCILE_INTERVAL", "1s");
        env.put("SLUICE_DISPATCH_MAX_RUNNING", "12");
        env.put("SLUICE_OUTPUT_STDOUT_CAP", "64K");

        Instant begun = Instant.now();
        Map<String, Kind> accepted = new ConcurrentHashMap<>();
        AtomicInteger killed = new AtomicInteger();
        try (Receiver ledger = Receiver.on("127.0.0.1")) {
            AtomicReference<WorkerProcess> worker = new AtomicReference<>(WorkerProcess.start(env));
            Thread killer = new Thread(
                    () -> {
                        for (int k = 0; k < kills; k++) {
                            sleep(1000 + random.nextInt(4000));
                            worker.get().kill();
                            killed.incrementAndGet();
                            sleep(random.nextInt(1000));
                            worker.set(WorkerProcess.start(env));
                        }
                    },
                    "chaos-killer");
            killer.start();

            for (int i = 0; i < dispatches; i++) {
                String id = "chaos-" + seed + "-" + i;
                Kind kind = KINDS.get(random.nextInt(KINDS.size()));
                submitUntilAccepted(worker, id, kind, ledger.url("/ledger"));
                accepted.put(id, kind);
                sleep(random.nextInt(250));
            }
            killer.join();

            // Quiescence: every accepted dispatch's result has reached the ledger.
            await().atMost(Duration.ofMinutes(5))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> deliveredIds(ledger).containsAll(accepted.keySet()));
            WorkerProcess last = worker.get();
            // The receiver can have a result before the worker has recorded the delivery (and a kill in between
            // means it is sent again): give the records time to settle, then count what they say.
            Instant settleBy = Instant.now().plus(Duration.ofSeconds(60));
            while (Instant.now().isBefore(settleBy)
                    && !accepted.keySet().stream().allMatch(id -> settled(last, id))) {
                Thread.sleep(500);
            }

            Map<String, List<Receiver.Request>> byId =
                    ledger.requests().stream().collect(Collectors.groupingBy(r -> r.header("webhook-id")));
            // Each message delivered with more than one body, with its bodies, for the report.
            Map<String, List<String>> conflicts = new TreeMap<>();
            byId.forEach((messageId, rs) -> {
                List<String> bodies =
                        rs.stream().map(Receiver.Request::bodyText).distinct().toList();
                if (bodies.size() > 1) {
                    conflicts.put(messageId, bodies);
                }
            });
            long conflicting = conflicts.size();
            long lost = accepted.keySet().stream()
                    .filter(id -> !byId.containsKey("msg_" + id))
                    .count();
            int delivered = 0;
            int dead = 0;
            List<String> wrong = new ArrayList<>();
            // The streams of every result, held to what their processes printed.
            int streams = 0;
            int shortStreams = 0;
            int wrongStreams = 0;
            int claimedComplete = 0;
            int saidIncomplete = 0;
            Map<String, Integer> witnesses = new TreeMap<>();
            for (Map.Entry<String, Kind> e : accepted.entrySet()) {
                JsonNode record = last.record(e.getKey());
                String state = WorkerClient.callbackState(record);
                delivered += state.equals("delivered") ? 1 : 0;
                dead += state.equals("dead") ? 1 : 0;
                JsonNode result = record.path("result");
                List<ExpectedStream.Verdict> verdicts = List.of(
                        e.getValue().stdout().check(result, "stdout"),
                        e.getValue().stderr().check(result, "stderr"));
                for (ExpectedStream.Verdict v : verdicts) {
                    streams++;
                    shortStreams += v.isShort() ? 1 : 0;
                    wrongStreams += v.isWrong() ? 1 : 0;
                    claimedComplete += v.claimsCompletenessFalsely() ? 1 : 0;
                    saidIncomplete += v.honestlyIncomplete() ? 1 : 0;
                    witnesses.merge(v.witnessState(), 1, Integer::sum);
                }
                if (!earned(record, e.getValue(), verdicts)) {
                    wrong.add(e.getKey() + " [" + e.getValue().script() + "]: "
                            + record.path("status").asText() + " "
                            + result.path("error").path("code").asText() + " exit "
                            + result.path("exitCode").asText() + " stdout "
                            + abbreviate(result.path("stdout").asText()) + " overflow "
                            + result.path("stdoutOverflow") + " logs "
                            + result.path("logs") + "; "
                            + verdicts.stream()
                                    .map(ExpectedStream.Verdict::describe)
                                    .collect(Collectors.joining("; ")));
                }
            }
            long duplicates = ledger.requests().size() - byId.size();

            // No container outlives its retention (2 s here) once the reaper has had its turn.
            try (var clients = TestDocker.clients()) {
                ContainerRuntime runtime = new ContainerRuntime(clients, TestDocker.containerConfig());
                await().atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(250))
                        .until(() -> runtime.managed().stream().noneMatch(c -> "chaos".equals(c.workerId())));
            }
            last.close();

            String report = String.format(
                    "chaos run (seed %d): %d dispatches accepted, %d kills, %s%n"
                            + "  delivered %d, dead-lettered %d, lost %d, conflicting bodies %d, duplicate deliveries %d, "
                            + "wrong results %d%n"
                            + "  streams checked byte for byte %d: short %d, wrong %d, claimed complete but short/wrong %d,"
                            + " said incomplete %d; witness states %s%n",
                    seed,
                    accepted.size(),
                    killed.get(),
                    Duration.between(begun, Instant.now()),
                    delivered,
                    dead,
                    lost,
                    conflicting,
                    duplicates,
                    wrong.size(),
                    streams,
                    shortStreams,
                    wrongStreams,
                    claimedComplete,
                    saidIncomplete,
                    witnesses);
            System.out.print(report);
            StringBuilder bodies = new StringBuilder(report);
            conflicts.forEach((messageId, distinct) -> {
                bodies.append(messageId)
                        .append(" was delivered with ")
                        .append(distinct.size())
                        .append(" bodies:\n");
                distinct.forEach(body -> bodies.append("  ").append(body).append('\n'));
            });
            wrong.forEach(w -> bodies.append("wrong: ").append(w).append('\n'));
            Files.writeString(Path.of("target/chaos-report.txt"), bodies);

            assertThat(lost).as("lost").isZero();
            assertThat(conflicting).as("conflicting bodies").isZero();
            assertThat(delivered + dead)
                    .as("accepted = delivered + dead-lettered")
                    .isEqualTo(accepted.size());
            assertThat(claimedComplete)
                    .as("streams short or wrong without saying so")
                    .isZero();
            assertThat(wrong).as("results their processes did not earn").isEmpty();
            assertThat(killed.get()).isEqualTo(kills);
        }
    }

    private static boolean settled(WorkerProcess worker, String id) {
        try {
            String state = WorkerClient.callbackState(worker.record(id));
            return state.equals("delivered") || state.equals("dead");
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Status, exit code and both streams as the kind's process produces them,
     * output being read back after a kill: each stream exact (digest and, when
     * returned whole, text), and a witness, when there is one, saying complete
     * or recovered and having counted what was written.
     */
    private static boolean earned(JsonNode record, Kind kind, List<ExpectedStream.Verdict> streams) {
        JsonNode result = record.path("result");
        boolean statusOk = record.path("status").asText().equals(kind.status())
                && result.path("exitCode").asInt() == kind.exitCode();
        boolean overflowOk = kind.stdout().bytes() <= 64 * 1024
                || result.path("stdoutOverflow").path("originalBytes").asLong()
                        == kind.stdout().bytes();
        return statusOk
                && overflowOk
                && streams.stream().allMatch(v -> v.problems().isEmpty());
    }

    private static String abbreviate(String text) {
        String quoted = JSON.valueToTree(text).toString();
        return quoted.length() > 80 ? quoted.substring(0, 80) + "..." : quoted;
    }

    private static Set<String> deliveredIds(Receiver ledger) {
        return ledger.requests().stream()
                .map(r -> r.header("webhook-id").substring("msg_".length()))
                .collect(Collectors.toSet());
    }

    /** As a client does: the same request, by id, until a 202 (a dead worker answers nothing; a draining one 503). */
    private static void submitUntilAccepted(
            AtomicReference<WorkerProcess> worker, String id, Kind kind, String callback) throws IOException {
        Map<String, Object> body = new HashMap<>(WorkerClient.script(kind.script()));
        body.put("id", id);
        body.put("callbackUrl", callback);
        Instant deadline = Instant.now().plusSeconds(120);
        while (Instant.now().isBefore(deadline)) {
            try {
                var response = worker.get().dispatch(body);
                if (response.statusCode() == 202) {
                    return;
                }
            } catch (IOException e) {
                // the worker is down: try again
            }
            sleep(200);
        }
        throw new AssertionError("dispatch " + id + " was never accepted");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
