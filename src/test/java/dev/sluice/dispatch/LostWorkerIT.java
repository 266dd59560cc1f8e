package dev.sluice.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.ManagedContainer;
import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.TestDocker;
import dev.sluice.testsupport.WorkerProcess;

/**
 * Two replicas on one PostgreSQL: when one dies, the other closes its
 * unfinished dispatches as worker_lost once its lease lapses, delivers the
 * callbacks it left pending, and removes what it left running on the engine.
 */
class LostWorkerIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String URL = "jdbc:postgresql://localhost:5432/sluice_replicas_test";

    private final Receiver pending = Receiver.on("127.0.0.1");
    private final Receiver closed = Receiver.on("127.0.0.1");

    @BeforeEach
    void emptyDatabase() {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setURL(URL);
        ds.setUser("sluice");
        ds.setPassword("sluice");
        Flyway.configure().dataSource(ds).cleanDisabled(false).load().clean();
    }

    @AfterEach
    void close() {
        pending.close();
        closed.close();
    }

    private static Map<String, String> replica(String id) {
        Path data = WorkerProcess.freshDataDir(id);
        Map<String, String> env = WorkerProcess.baseEnvironment(data, id);
        env.put("QUARKUS_DATASOURCE_JDBC_URL", URL);
        env.put("QUARKUS_DATASOURCE_USERNAME", "sluice");
        env.put("QUARKUS_DATASOURCE_PASSWORD", "sluice");
        env.put("SLUICE_WORKER_LEASE", "3s");
        env.put("SLUICE_WORKER_RECONCILE_INTERVAL", "1s");
        env.put("SLUICE_WORKER_ORPHAN_GRACE", "2s");
        env.put("SLUICE_DISPATCH_REAPER_INTERVAL", "1s");
        env.put("SLUICE_CALLBACK_RETRY_SCHEDULE", "0s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s");
        return env;
    }

    private static String submit(WorkerProcess worker, String script, String callbackUrl) throws IOException {
        String body = JSON.writeValueAsString(Map.of("image", TestDocker.AGENT_IMAGE,
                "command", List.of("sh", "-c", script), "callbackUrl", callbackUrl));
        var response = worker.post("/v1/dispatches", body);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        return JSON.readTree(response.body()).path("id").asText();
    }

    private static JsonNode record(WorkerProcess worker, String id) throws IOException {
        return JSON.readTree(worker.get("/v1/dispatches/" + id).body());
    }

    @Test
    void aLiveReplicaClosesTheLostOnesDispatchesAndDeliversItsCallbacks() throws Exception {
        pending.otherwise(Receiver.status(503));
        String delivered;
        String running;
        try (WorkerProcess a = WorkerProcess.start(replica("replica-a")); WorkerProcess b = WorkerProcess.start(replica("replica-b"))) {
            delivered = submit(a, "echo finished before the crash", pending.url("/hook"));
            running = submit(a, "echo started; sleep 120", closed.url("/hook"));
            await().atMost(Duration.ofSeconds(30)).until(() -> pending.requests().size() >= 1
                    && "running".equals(record(a, running).path("status").asText()));
            a.kill();
            pending.otherwise(Receiver.status(200));

            // replica-b delivers what replica-a left in the outbox, with the same webhook-id and body.
            JsonNode d = await().atMost(Duration.ofSeconds(60)).until(() -> record(b, delivered),
                    r -> "delivered".equals(r.path("callback").path("state").asText()));
            assertThat(d.path("status").asText()).isEqualTo("succeeded");
            assertThat(pending.requests()).extracting(r -> r.header("webhook-id")).containsOnly("msg_" + delivered);
            assertThat(pending.requests()).extracting(Receiver.Request::bodyText).containsOnly(pending.requests().get(0).bodyText());

            // ...closes replica-a's running dispatch once its lease lapses, and delivers that result.
            JsonNode lost = await().atMost(Duration.ofSeconds(60)).until(() -> record(b, running),
                    r -> "delivered".equals(r.path("callback").path("state").asText()));
            assertThat(lost.path("status").asText()).isEqualTo("error");
            assertThat(lost.path("result").path("error").path("code").asText()).isEqualTo("worker_lost");
            assertThat(closed.requests()).hasSize(1);

            // ...and removes the container replica-a left running on the shared engine.
            try (var clients = TestDocker.clients()) {
                ContainerRuntime runtime = new ContainerRuntime(clients, TestDocker.containerConfig());
                await().atMost(Duration.ofSeconds(60)).until(() -> runtime.managed().stream()
                        .map(ManagedContainer::dispatchId).noneMatch(running::equals));
            }
        }
    }
}
