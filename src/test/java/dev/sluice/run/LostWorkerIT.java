package dev.sluice.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

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
 * worker_lost once its lease lapses, delivers the callbacks it left pending,
 * and removes what it left running on the engine.
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
        env.put("SLUICE_WORKER_LEASE", "3s");
        env.put("SLUICE_WORKER_RECONCILE_INTERVAL", "1s");
        env.put("SLUICE_WORKER_ORPHAN_GRACE", "2s");
        env.put("SLUICE_DISPATCH_REAPER_INTERVAL", "1s");
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

    @Test
    void aLiveReplicaClosesTheLostOnesDispatchesAndDeliversItsCallbacks() throws Exception {
        pending.otherwise(Receiver.status(503));
        String delivered;
        String running;
        Map<String, String> oneSlot = replica("replica-a");
        oneSlot.put("SLUICE_DISPATCH_MAX_RUNNING", "1");
        try (WorkerProcess a = WorkerProcess.start(oneSlot);
                WorkerProcess b = WorkerProcess.start(replica("replica-b"))) {
            delivered = submitPinned(a, "echo finished before the crash", pending.url("/hook"));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> pending.requests().size() >= 1);
            running = submitPinned(a, "echo started; sleep 120", closed.url("/hook"));
            await().atMost(Duration.ofSeconds(30))
                    .until(() ->
                            "running".equals(a.record(running).path("status").asText()));

            // replica-a's one slot is taken: what it accepts now runs on replica-b, from the one queue.
            String elsewhere = submit(a, "echo ran elsewhere", closed.url("/hook"));
            JsonNode e = a.awaitDelivered(elsewhere);
            assertThat(e.path("result").path("stdout").asText()).isEqualTo("ran elsewhere\n");
            try (var clients = TestDocker.clients()) {
                assertThat(new ContainerRuntime(clients, TestDocker.containerConfig())
                                .managed().stream()
                                        .filter(c -> c.dispatchId().equals(elsewhere))
                                        .map(ManagedContainer::workerId))
                        .containsExactly("replica-b");
            }

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
            assertThat(lost.path("result").path("error").path("code").asText()).isEqualTo("worker_lost");
            assertThat(closed.requests())
                    .extracting(r -> r.header("webhook-id"))
                    .containsExactlyInAnyOrder("msg_" + elsewhere, "msg_" + running);

            // ...and removes the container replica-a left running on the shared engine.
            try (var clients = TestDocker.clients()) {
                ContainerRuntime runtime = new ContainerRuntime(clients, TestDocker.containerConfig());
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> runtime.managed().stream()
                                .map(ManagedContainer::dispatchId)
                                .noneMatch(running::equals));
            }
        }
    }
}
