package dev.sluice.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.ManagedContainer;
import dev.sluice.testsupport.Digests;
import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.TestDocker;
import dev.sluice.testsupport.TestStores;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;

/**
 * Replicas on one PostgreSQL and one engine, from outside (issue 29): a flood
 * of dispatches posted round-robin to them while one is killed with SIGKILL
 * part-way. Every dispatch ends exactly once, with its bytes; the killed
 * replica's waiting work runs on the others, and of its running work only what
 * asked for another attempt runs again; every callback is delivered; a cancel
 * sent to a replica that does not run a dispatch stops it, and a log read
 * through one is the runner's bytes.
 *
 * <p>{@code -Dsluice.replicas.count} (3) and {@code -Dsluice.replicas.dispatches}
 * (150; the 300 with {@code -Dsluice.replicas.dispatches=300}, which
 * {@code bench/replicas.sh} runs) size it, {@code -Dsluice.replicas.kill=false}
 * kills none; with one replica nothing is killed. It prints one line of
 * figures, which {@code bench/replicas.sh} collects for BENCHMARKS.md.
 */
class ReplicasIT {

    private static final String DATABASE = "sluice_fleet_test";
    private static final int REPLICAS = Integer.getInteger("sluice.replicas.count", 3);
    /**
     * 150 by default. The kill waits until a third (50) is delivered and a dispatch that asked for a second
     * attempt has just started on the replica it kills; the hundred left then fill the replicas' 24 slots
     * four times over, so that replica dies with work running and work it accepted still waiting, and a
     * third of the twenty left that ask twice, each running ten seconds, start on it: the one to cut short.
     * The 300 is the same flood run twice as long: {@code -Dsluice.replicas.dispatches=300}, as
     * {@code bench/replicas.sh} runs it.
     */
    private static final int DISPATCHES = Integer.getInteger("sluice.replicas.dispatches", 150);
    /** Whether one replica is killed part-way; off for the benchmark's one-against-three comparison. */
    private static final boolean KILL = Boolean.parseBoolean(System.getProperty("sluice.replicas.kill", "true"));
    /** Slots per replica: three replicas of 8 on two cores keep the engine busy without drowning it. */
    private static final int SLOTS = 8;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Receiver receiver = Receiver.on("127.0.0.1");
    private final List<WorkerProcess> replicas = new ArrayList<>();

    @AfterEach
    void close() {
        replicas.forEach(WorkerProcess::close);
        receiver.close();
        removeFleetContainers();
    }

    private static Map<String, String> replica(String id) {
        Path data = WorkerProcess.freshDataDir(id);
        Map<String, String> env = WorkerProcess.baseEnvironment(data, id);
        env.put("SLUICE_ARTIFACTS_DIR", data.resolve("artifacts").toString());
        env.put("QUARKUS_DATASOURCE_JDBC_URL", TestStores.postgresUrl(DATABASE));
        env.put("QUARKUS_DATASOURCE_USERNAME", TestStores.postgresUser());
        env.put("QUARKUS_DATASOURCE_PASSWORD", TestStores.postgresPassword());
        env.put("SLUICE_WORKER_RELAY_SECRETS", "UmVwbGljYXNJVCByZWxheSBzZWNyZXQgb2YgMzIgYnl0ZXM="); // ADR 0072
        // Six seconds, renewed every two: with three, a replica just started and taking the flood on two cores
        // at a load of 20 went unrenewed past them, and its running work was closed as lost while it ran on.
        env.put("SLUICE_WORKER_LEASE", "6s");
        env.put("SLUICE_WORKER_RECONCILE_INTERVAL", "1s");
        env.put("SLUICE_DISPATCH_TICK", "1s");
        env.put("SLUICE_DISPATCH_MAX_RUNNING", Integer.toString(SLOTS));
        env.put("SLUICE_CONTAINER_MAX_RETAINED", "2000"); // every container stays to be counted
        env.put("SLUICE_WORKER_WARM_UP", "false"); // three JVMs on two cores: the flood warms them
        return env;
    }

    /**
     * What dispatch {@code i} prints: a few KiB, its own. When a replica is
     * killed, one that asks for a second attempt runs for ten seconds, so the
     * kill can be timed to cut one of them short even when looking for one
     * takes seconds on a loaded machine.
     */
    private static String script(int i) {
        String sleep = twice(i) && KILL && REPLICAS > 1 ? "10" : "0.5";
        return "seq " + i + " " + (i + 600) + "; sleep " + sleep + "; echo end " + i;
    }

    private static byte[] printed(int i) {
        StringBuilder out = new StringBuilder();
        for (int n = i; n <= i + 600; n++) {
            out.append(n).append('\n');
        }
        return out.append("end ").append(i).append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Every fifth dispatch asks for a second attempt (ADR 0066). */
    private static boolean twice(int i) {
        return i % 5 == 0;
    }

    @Test
    void everyDispatchEndsExactlyOnceWhileAReplicaIsKilled() throws Exception {
        Flyway.configure()
                .dataSource(TestStores.postgres(DATABASE))
                .cleanDisabled(false)
                .load()
                .clean();
        // The first alone, as it migrates the emptied database; the others together, which on two cores takes
        // less than one after another.
        replicas.add(WorkerProcess.start(replica("fleet-0")));
        List<CompletableFuture<WorkerProcess>> others = new ArrayList<>();
        for (int r = 1; r < REPLICAS; r++) {
            Map<String, String> env = replica("fleet-" + r);
            others.add(CompletableFuture.supplyAsync(() -> WorkerProcess.start(env)));
        }
        try {
            CompletableFuture.allOf(others.toArray(CompletableFuture[]::new)).get(3, TimeUnit.MINUTES);
        } finally { // each that started is closed after the test, whether or not the others did
            others.stream()
                    .filter(other -> other.isDone() && !other.isCompletedExceptionally())
                    .map(CompletableFuture::join)
                    .forEach(replicas::add);
        }
        WorkerProcess killed = KILL && REPLICAS > 1 ? replicas.get(1) : null;

        // Posted round-robin from several clients at once; every one accepted.
        Map<String, Integer> numberOf = new ConcurrentHashMap<>();
        Map<String, Instant> acceptedAt = new ConcurrentHashMap<>();
        Map<String, WorkerProcess> postedTo = new ConcurrentHashMap<>();
        Instant begun = Instant.now();
        ExecutorService clients = Executors.newFixedThreadPool(6);
        List<Future<?>> posts = new ArrayList<>();
        for (int i = 0; i < DISPATCHES; i++) {
            int n = i;
            WorkerProcess to = replicas.get(i % REPLICAS);
            posts.add(clients.submit(() -> {
                Map<String, Object> request = new HashMap<>(WorkerClient.script(script(n)));
                request.put("id", "fleet-" + n);
                request.put("callbackUrl", receiver.url("/hook"));
                if (twice(n)) {
                    request.put("maxAttempts", 2);
                }
                String id = accepted(to, request);
                acceptedAt.put(id, Instant.now());
                numberOf.put(id, n);
                postedTo.put(id, to);
                return null;
            }));
        }
        for (Future<?> post : posts) {
            post.get(2, TimeUnit.MINUTES);
        }
        clients.shutdown();

        String cutShort = null;
        if (killed != null) {
            // Part-way: about a third delivered, the rest running or waiting; and while the replica runs a
            // dispatch that asked for a second attempt, started so lately that its ten seconds are not over.
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> receiver.byWebhookId("msg_").size() >= DISPATCHES / 3);
            cutShort = await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> justStartedAskingTwice("fleet-1", numberOf), Optional::isPresent)
                    .orElseThrow();
            killed.kill();
        }
        await().atMost(Duration.ofMinutes(6))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> receiver.byWebhookId("msg_").size() >= DISPATCHES);
        Instant ended = Instant.now();

        // Each dispatch's callback: one body whatever the retries, delivered.
        Map<String, JsonNode> results = new HashMap<>();
        Map<String, List<Receiver.Request>> byId =
                receiver.requests().stream().collect(Collectors.groupingBy(r -> r.header("webhook-id")));
        assertThat(byId.keySet()).hasSize(DISPATCHES);
        byId.forEach((webhookId, sent) -> {
            assertThat(sent)
                    .extracting(Receiver.Request::bodyText)
                    .containsOnly(sent.get(0).bodyText());
            JsonNode result = json(sent.get(0).bodyText());
            results.put(result.path("dispatchId").asText(), result);
        });
        assertThat(results.keySet()).isEqualTo(numberOf.keySet());

        Map<String, List<ManagedContainer>> containers = containersByDispatch();
        String killedId = killed == null ? null : "fleet-1";
        int lost = 0;
        int attemptedAgain = 0;
        for (Map.Entry<String, JsonNode> e : results.entrySet()) {
            String id = e.getKey();
            int n = numberOf.get(id);
            JsonNode result = e.getValue();
            List<ManagedContainer> ran = containers.getOrDefault(id, List.of());
            String status = result.path("status").asText();
            int attempt = result.path("attempt").asInt();
            if (status.equals("error")) {
                // Only the killed replica's running work is lost, and only when it asked for one attempt.
                assertThat(result.path("error").path("code").asText()).as(id).isEqualTo("worker_lost");
                assertThat(twice(n)).as(id).isFalse();
                // It ran, or was starting, there: at most the one container, the killed replica's.
                assertThat(ran).as(id).hasSizeLessThanOrEqualTo(1);
                assertThat(ran).as(id).allMatch(c -> c.workerId().equals(killedId));
                lost++;
                continue;
            }
            assertThat(status).as(id).isEqualTo("succeeded");
            byte[] stdout = result.path("stdout").asText().getBytes(StandardCharsets.UTF_8);
            byte[] expected = printed(n);
            assertThat(stdout.length).as(id).isEqualTo(expected.length);
            assertThat(Digests.sha256(stdout)).as(id).isEqualTo(Digests.sha256(expected));
            // Ran once: never twice unless it asked for attempts and its first worker was lost (an attempt lost
            // before its container was created left none).
            if (attempt == 1) {
                assertThat(ran).as(id).hasSize(1);
            } else {
                assertThat(ran).as(id).hasSizeBetween(1, attempt);
                assertThat(ran)
                        .as(id)
                        .filteredOn(c -> !c.workerId().equals(killedId))
                        .hasSize(1);
                assertThat(twice(n)).as(id).isTrue();
                assertThat(result.path("earlierAttempts")
                                .get(0)
                                .path("workerId")
                                .asText())
                        .isEqualTo(killedId);
                attemptedAgain++;
            }
        }
        if (killed != null) {
            // The dispatch cut short by the kill ran again elsewhere, whole: its second attempt.
            JsonNode again = results.get(cutShort);
            assertThat(again.path("status").asText()).as(cutShort).isEqualTo("succeeded");
            assertThat(again.path("attempt").asInt()).as(cutShort).isEqualTo(2);
            assertThat(again.path("earlierAttempts")).as(cutShort).hasSize(1);
            assertThat(again.path("earlierAttempts").get(0).path("workerId").asText())
                    .as(cutShort)
                    .isEqualTo(killedId);
            assertThat(attemptedAgain).isPositive();
            // What the killed replica accepted and had not run went to the others.
            assertThat(postedTo.entrySet().stream()
                            .filter(p -> p.getValue() == killed)
                            .map(p -> containers.getOrDefault(p.getKey(), List.of()))
                            .filter(ran -> !ran.isEmpty()
                                    && ran.stream().noneMatch(c -> c.workerId().equals(killedId))))
                    .isNotEmpty();
        }

        List<WorkerProcess> live = replicas.stream().filter(w -> w != killed).toList();
        if (live.size() > 1) {
            readsAndCancelsThroughAnotherReplica(live, containers, numberOf);
        }

        printFigures(results, acceptedAt, begun, ended, lost, attemptedAgain);
    }

    /**
     * Posts as a control plane does: a 503 (the engine did not answer in time,
     * as on two busy cores) or a 429 is tried again after its Retry-After, for
     * a bounded while; anything else must be 202.
     */
    private static String accepted(WorkerProcess to, Map<String, Object> request) throws Exception {
        Instant giveUp = Instant.now().plus(Duration.ofMinutes(2));
        while (true) {
            HttpResponse<String> answer = to.dispatch(request);
            int status = answer.statusCode();
            if ((status != 503 && status != 429) || Instant.now().isAfter(giveUp)) {
                assertThat(status).as(answer.body()).isEqualTo(202);
                return json(answer.body()).path("id").asText();
            }
            Thread.sleep(Duration.ofSeconds(
                            answer.headers().firstValueAsLong("Retry-After").orElse(1))
                    .toMillis());
        }
    }

    /** A log read through a replica that did not run the dispatch, and a cancel sent to one. */
    private void readsAndCancelsThroughAnotherReplica(
            List<WorkerProcess> live, Map<String, List<ManagedContainer>> containers, Map<String, Integer> numberOf)
            throws IOException {
        Map<String, WorkerProcess> byWorkerId = new HashMap<>();
        for (int r = 0; r < REPLICAS; r++) {
            byWorkerId.put("fleet-" + r, replicas.get(r));
        }
        Map.Entry<String, List<ManagedContainer>> ranOnLive = containers.entrySet().stream()
                .filter(e -> e.getValue().size() == 1
                        && live.contains(byWorkerId.get(e.getValue().get(0).workerId())))
                .findFirst()
                .orElseThrow();
        WorkerProcess owner = byWorkerId.get(ranOnLive.getValue().get(0).workerId());
        WorkerProcess other = live.stream().filter(w -> w != owner).findFirst().orElseThrow();
        HttpResponse<String> log = other.get("/v1/dispatches/" + ranOnLive.getKey() + "/logs/stdout");
        assertThat(log.statusCode()).isEqualTo(200);
        byte[] expected = printed(numberOf.get(ranOnLive.getKey()));
        assertThat(Digests.sha256(log.body().getBytes(StandardCharsets.UTF_8))).isEqualTo(Digests.sha256(expected));

        Map<String, Object> request = new HashMap<>(WorkerClient.script("echo waiting; sleep 120"));
        request.put("id", "fleet-cancelled");
        String id = live.get(0).submit(request);
        await().atMost(Duration.ofSeconds(60))
                .until(() -> containersByDispatch().getOrDefault(id, List.of()).stream()
                        .anyMatch(c -> c.state().equals("running")));
        String runner = containersByDispatch().get(id).get(0).workerId();
        WorkerProcess notRunner = live.stream()
                .filter(w -> w != byWorkerId.get(runner))
                .findFirst()
                .orElseThrow();
        Instant asked = Instant.now();
        assertThat(notRunner.delete("/v1/dispatches/" + id).statusCode()).isEqualTo(202);
        JsonNode cancelled = notRunner.awaitTerminal(id, Duration.ofSeconds(20));
        assertThat(cancelled.path("status").asText()).isEqualTo("cancelled");
        System.out.printf(
                Locale.ROOT,
                "replicas: cancel through a replica that does not run it ended it in %d ms%n",
                Duration.between(asked, Instant.now()).toMillis());
    }

    private static void printFigures(
            Map<String, JsonNode> results,
            Map<String, Instant> acceptedAt,
            Instant begun,
            Instant ended,
            int lost,
            int attemptedAgain) {
        List<Long> waits = results.entrySet().stream()
                .filter(e -> e.getValue().path("startedAt").isTextual()
                        && e.getValue().path("attempt").asInt() == 1)
                .map(e -> Duration.between(
                                acceptedAt.get(e.getKey()),
                                Instant.parse(e.getValue().path("startedAt").asText()))
                        .toMillis())
                .sorted()
                .toList();
        double seconds = Duration.between(begun, ended).toMillis() / 1000.0;
        System.out.printf(
                Locale.ROOT,
                "replicas: %d replicas, %d dispatches in %.1f s, %.1f started/s, wait to start p50 %d ms p99 %d ms,"
                        + " %d worker_lost, %d attempted again%n",
                REPLICAS,
                results.size(),
                seconds,
                results.size() / seconds,
                percentile(waits, 50),
                percentile(waits, 99),
                lost,
                attemptedAgain);
    }

    private static long percentile(List<Long> sorted, int p) {
        return sorted.isEmpty() ? -1 : sorted.get(Math.min(sorted.size() - 1, sorted.size() * p / 100));
    }

    /**
     * A dispatch asking for a second attempt whose container runs on {@code workerId} and was created
     * within the last eight seconds (the engine counts in whole seconds), so its ten-second sleep, begun
     * after that, has at least one more to run. A loaded machine takes seconds from create to start, so
     * a narrower window can stay empty.
     */
    private static Optional<String> justStartedAskingTwice(String workerId, Map<String, Integer> numberOf) {
        Instant lately = Instant.now().minusSeconds(8);
        return containersByDispatch().entrySet().stream()
                .filter(e -> numberOf.containsKey(e.getKey()) && twice(numberOf.get(e.getKey())))
                .filter(e -> e.getValue().stream()
                        .anyMatch(c -> c.workerId().equals(workerId)
                                && c.state().equals("running")
                                && !c.created().isBefore(lately)))
                .map(Map.Entry::getKey)
                .findFirst();
    }

    private static Map<String, List<ManagedContainer>> containersByDispatch() {
        try (var clients = TestDocker.clients()) {
            return new ContainerRuntime(clients, TestDocker.containerConfig())
                    .managed().stream()
                            .filter(c -> c.workerId() != null && c.workerId().startsWith("fleet-"))
                            .collect(Collectors.groupingBy(ManagedContainer::dispatchId));
        }
    }

    /** Removes every container the replicas made, eight at a time: as many changes as the engine client allows. */
    private static void removeFleetContainers() {
        ExecutorService removers = Executors.newFixedThreadPool(8);
        try (var clients = TestDocker.clients()) {
            ContainerRuntime runtime = new ContainerRuntime(clients, TestDocker.containerConfig());
            List<Future<?>> removals = runtime.managed().stream()
                    .filter(c -> c.workerId() != null && c.workerId().startsWith("fleet-"))
                    .map(c -> removers.submit(() -> runtime.remove(c.id())))
                    .collect(Collectors.toList());
            for (Future<?> removal : removals) {
                removal.get(2, TimeUnit.MINUTES);
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the fleet's containers were not all removed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            removers.shutdownNow();
        }
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
