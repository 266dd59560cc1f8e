package dev.sluice.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.ManagedContainer;
import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.TestDocker;
import dev.sluice.testsupport.TestStores;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;

/**
 * Two replicas on one PostgreSQL: what one accepts while it is full runs on
 * the other; when one dies, the other closes its unfinished dispatches as
 * worker_lost once its lease lapses (but runs again one that asked for a
 * second attempt), delivers the callbacks it left pending, and removes what it
 * left running on the engine.
 */
class LostWorkerIT {

    private static final String DATABASE = "sluice_replicas_test";

    private final Receiver pending = Receiver.on("127.0.0.1");
    private final Receiver closed = Receiver.on("127.0.0.1");

    @BeforeEach
    void emptyDatabase() {
        Flyway.configure()
                .dataSource(TestStores.postgres(DATABASE))
                .cleanDisabled(false)
                .load()
                .clean();
    }

    @AfterEach
    void close() {
        pending.close();
        closed.close();
    }

    private static Map<String, String> replica(String id) {
        Path data = WorkerProcess.freshDataDir(id);
        Map<String, String> env = WorkerProcess.baseEnvironment(data, id);
        env.put("QUARKUS_DATASOURCE_JDBC_URL", TestStores.postgresUrl(DATABASE));
        env.put("QUARKUS_DATASOURCE_USERNAME", TestStores.postgresUser());
        env.put("QUARKUS_DATASOURCE_PASSWORD", TestStores.postgresPassword());
        // Six seconds, as ReplicasIT's: with three, replica-a at a load of 22 went unrenewed past them while it
        // was alive, and its running work was closed as lost before the kill.
        env.put("SLUICE_WORKER_LEASE", "6s");
        env.put("SLUICE_WORKER_RECONCILE_INTERVAL", "1s");
        env.put("SLUICE_WORKER_ORPHAN_GRACE", "2s");
        env.put("SLUICE_DISPATCH_REAPER_INTERVAL", "1s");
        // A delivery replica-a had claimed when it was killed is due again once the claim lapses, twice the
        // attempt timeout and half a minute after it was taken: 36 s with three, not a minute with the default.
        env.put("SLUICE_CALLBACK_ATTEMPT_TIMEOUT", "3s");
        env.put("SLUICE_CALLBACK_RETRY_SCHEDULE", "0s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s");
        return env;
    }

    private static String submit(WorkerProcess worker, String script, String callbackUrl) throws IOException {
        Map<String, Object> request = new HashMap<>(WorkerClient.script(script));
        request.put("callbackUrl", callbackUrl);
        return worker.submit(request);
    }

    /** With a secret: only the replica that accepted it may run it (ADR 0063). */
    private static String submitPinned(WorkerProcess worker, String script, String callbackUrl) throws IOException {
        Map<String, Object> request = new HashMap<>(WorkerClient.script(script));
        request.put("callbackUrl", callbackUrl);
        request.put("secrets", Map.of("PINNING_TOKEN", "only-replica-a-has-it"));
        return worker.submit(request);
    }

    /** Without secrets, and allowed a second attempt: another replica runs it again once its worker is lost. */
    private static String submitTwice(WorkerProcess worker, String script, String callbackUrl) throws IOException {
        Map<String, Object> request = new HashMap<>(WorkerClient.script(script));
        request.put("callbackUrl", callbackUrl);
        request.put("maxAttempts", 2);
        return worker.submit(request);
    }

    @Test
    void aLiveReplicaClosesTheLostOnesDispatchesAndDeliversItsCallbacks() throws Exception {
        pending.otherwise(Receiver.status(503));
        String delivered;
        String running;
        String twice;
        Map<String, String> twoSlots = replica("replica-a");
        twoSlots.put("SLUICE_DISPATCH_MAX_RUNNING", "2");
        CompletableFuture<WorkerProcess> second =
                CompletableFuture.supplyAsync(() -> WorkerProcess.start(replica("replica-b")));
        try (WorkerProcess a = WorkerProcess.start(twoSlots)) {
            try (WorkerProcess b = second.get(3, TimeUnit.MINUTES)) {
                delivered = submitPinned(a, "echo finished before the crash", pending.url("/hook"));
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> pending.requests().size() >= 1);
                running = submitPinned(a, "echo started; sleep 120", closed.url("/hook"));
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> "running"
                                .equals(a.record(running).path("status").asText()));
                // Claimed by replica-a as it accepts it, into its second slot. Each attempt reads the clock as it
                // starts. One started before the moment that sets the attempts apart (twelve seconds after the
                // request, many times what a start takes on a loaded machine), the first, sleeps until a minute
                // after the request: it outlives its worker, stopped by the replica that queues its next attempt,
                // so it exits by a signal, not 0. One started after it, the second (the kill waits for that
                // moment), ends at once.
                long requested = Instant.now().getEpochSecond();
                long apart = requested + 12;
                String script = "echo attempt started; now=$(date +%s); if [ $now -lt " + apart + " ]; then sleep $(("
                        + (requested + 60) + " - now)); fi; echo attempt done";
                twice = submitTwice(a, script, closed.url("/hook"));
                await().atMost(Duration.ofSeconds(30))
                        .until(() ->
                                "running".equals(a.record(twice).path("status").asText()));
                assertThat(Instant.now().getEpochSecond())
                        .as("the first attempt started well before the moment that sets the attempts apart")
                        .isLessThan(apart - 1);
                assertThat(containersOf(twice))
                        .extracting(ManagedContainer::workerId)
                        .containsExactly("replica-a");

                // replica-a's slots are taken: what it accepts now runs on replica-b, from the one queue.
                String elsewhere = submit(a, "echo ran elsewhere", closed.url("/hook"));
                JsonNode e = a.awaitDelivered(elsewhere);
                assertThat(e.path("result").path("stdout").asText()).isEqualTo("ran elsewhere\n");
                assertThat(containersOf(elsewhere))
                        .extracting(ManagedContainer::workerId)
                        .containsExactly("replica-b");

                await().atMost(Duration.ofSeconds(30)).until(() -> Instant.now().getEpochSecond() > apart);
                a.kill();
                pending.otherwise(Receiver.status(200));

                // replica-b delivers what replica-a left in the outbox, with the same webhook-id and body.
                JsonNode d = b.awaitDelivered(delivered);
                assertThat(d.path("status").asText()).isEqualTo("succeeded");
                assertThat(pending.requests())
                        .extracting(r -> r.header("webhook-id"))
                        .containsOnly("msg_" + delivered);
                assertThat(pending.requests())
                        .extracting(Receiver.Request::bodyText)
                        .containsOnly(pending.requests().get(0).bodyText());

                // ...closes replica-a's running dispatch once its lease lapses, and delivers that result.
                JsonNode lost = b.awaitDelivered(running);
                assertThat(lost.path("status").asText()).isEqualTo("error");
                assertThat(lost.path("result").path("error").path("code").asText())
                        .isEqualTo("worker_lost");
                assertThat(lost.path("result").path("attempt").asInt()).isEqualTo(1);
                assertThat(lost.path("result").has("earlierAttempts")).isFalse();

                // ...runs the one that asked for a second attempt again, whole, and says which attempt it was.
                JsonNode again = b.awaitDelivered(twice);
                assertThat(again.path("status").asText()).isEqualTo("succeeded");
                assertThat(again.path("attempt").asInt()).isEqualTo(2);
                JsonNode result = again.path("result");
                assertThat(result.path("stdout").asText()).isEqualTo("attempt started\nattempt done\n");
                assertThat(result.path("attempt").asInt()).isEqualTo(2);
                assertThat(result.path("earlierAttempts")).hasSize(1);
                JsonNode first = result.path("earlierAttempts").get(0);
                assertThat(first.path("attempt").asInt()).isEqualTo(1);
                assertThat(first.path("workerId").asText()).isEqualTo("replica-a");
                assertThat(first.path("error").path("code").asText()).isEqualTo("worker_lost");
                assertThat(first.path("startedAt").isTextual()).isTrue();
                // Delivered once, of the last attempt.
                assertThat(closed.requests())
                        .extracting(r -> r.header("webhook-id"))
                        .containsExactlyInAnyOrder("msg_" + elsewhere, "msg_" + running, "msg_" + twice);
                assertThat(closed.requests().stream()
                                .filter(r -> ("msg_" + twice).equals(r.header("webhook-id")))
                                .map(r -> attemptOf(r.bodyText())))
                        .containsExactly(2);
                // The first attempt's container, on the engine both replicas share, was stopped, not left to
                // run on beside the second.
                try (var clients = TestDocker.clients()) {
                    ContainerRuntime runtime = new ContainerRuntime(clients, TestDocker.containerConfig());
                    List<ManagedContainer> attempts = containersOf(twice);
                    assertThat(attempts).extracting(ManagedContainer::workerId).contains("replica-a", "replica-b");
                    ManagedContainer firstAttempt = attempts.stream()
                            .filter(c -> c.workerId().equals("replica-a"))
                            .findFirst()
                            .orElseThrow();
                    assertThat(runtime.inspect(firstAttempt.id()).orElseThrow().exitCode())
                            .isNotEqualTo(0);
                }

                // ...and removes the container replica-a left running on the shared engine.
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> containersOf(running).isEmpty());
            }
        }
    }

    private static int attemptOf(String result) {
        try {
            return new ObjectMapper().readTree(result).path("attempt").asInt();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<ManagedContainer> containersOf(String dispatchId) {
        try (var clients = TestDocker.clients()) {
            return new ContainerRuntime(clients, TestDocker.containerConfig())
                    .managed().stream()
                            .filter(c -> c.dispatchId().equals(dispatchId))
                            .toList();
        }
    }
}
