package dev.sluice.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.Engine;
import dev.sluice.testsupport.EngineWide;
import dev.sluice.testsupport.TcpProxy;
import dev.sluice.testsupport.TestStores;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;
import dev.sluice.worker.CrashPoint;

/**
 * The three probes of the packaged worker, each through the transitions it
 * must follow (ADR 0067): startup DOWN while a slow reconciliation takes up
 * what a crashed instance left, and UP only once it has; readiness DOWN while
 * the engine hangs (SIGSTOP), while the store is cut off and while draining,
 * UP again when each ends; liveness UP throughout, since a restart would mend
 * none of them. One worker on PostgreSQL, reached through a relay the test
 * cuts, so that the server other tests share keeps running.
 */
@EngineWide
class ProbesIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DATABASE = "sluice_probes_test";
    private static final Duration RECONCILE_DELAY = Duration.ofSeconds(6);

    @Test
    void eachProbeSaysWhatItMeans() throws Exception {
        Engine.requireOurs();
        DataSource store = TestStores.postgres(DATABASE);
        Flyway.configure().dataSource(store).cleanDisabled(false).load().clean();
        String workerId = "probes-" + System.nanoTime();
        String left = leftByACrashedInstance(workerId);

        try (TcpProxy relay = TcpProxy.to(postgres()[0], Integer.parseInt(postgres()[1]));
                WorkerProcess worker = WorkerProcess.spawn(environment(
                        workerId,
                        "127.0.0.1:" + relay.port(),
                        Map.of("SLUICE_CHAOS_RECONCILE_DELAY", RECONCILE_DELAY.toSeconds() + "s")))) {
            startsOnlyOnceReconciled(worker, workerId, left);
            unreadyWhileTheEngineHangs(worker);
            unreadyWhileTheStoreIsCutOff(worker, relay);
            unreadyWhileDraining(worker, store);
        }
    }

    /** A dispatch accepted by an instance of the worker that died before it could queue it. */
    private String leftByACrashedInstance(String workerId) throws IOException {
        String id = "probes-left-" + System.nanoTime();
        try (WorkerProcess crashing = WorkerProcess.start(environment(
                workerId,
                String.join(":", postgres()),
                Map.of("SLUICE_CHAOS_HALT_AT", CrashPoint.AFTER_ACCEPT.name(), "SLUICE_WORKER_WARM_UP", "false")))) {
            try {
                Map<String, Object> request = new HashMap<>(WorkerClient.script("echo taken up"));
                request.put("id", id);
                crashing.dispatch(request);
            } catch (IOException e) {
                // halted before it answered
            }
            assertThat(crashing.awaitExit(Duration.ofSeconds(30))).isTrue();
            assertThat(crashing.exitValue()).isEqualTo(137);
        }
        return id;
    }

    private void startsOnlyOnceReconciled(WorkerProcess worker, String workerId, String left) throws Exception {
        JsonNode waiting = await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .ignoreExceptions()
                .until(() -> health(worker, "started"), h -> h.status == 503 || h.status == 200)
                .body;
        // The first answer comes while the pass waits out its delay: down, saying what for.
        assertThat(waiting.path("status").asText()).isEqualTo("DOWN");
        JsonNode started = check(waiting, "started");
        assertThat(started.path("data").path("waitingFor").asText())
                .isEqualTo("reconciliation of what a previous instance of worker " + workerId + " left");
        assertThat(started.path("data").path("reconciliation").asText()).isEqualTo("running");
        assertThat(started.path("data").path("store").asText()).isEqualTo("postgresql");
        assertThat(check(health(worker, "ready").body, "started").path("status").asText())
                .isEqualTo("DOWN");
        assertThat(health(worker, "live").status).isEqualTo(200);
        assertThat(worker.logText()).doesNotContain("reconciled 1 dispatches of worker " + workerId);

        await().atMost(RECONCILE_DELAY.plusSeconds(20))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> health(worker, "started").status == 200);
        // UP only once the crashed instance's dispatch was taken up.
        assertThat(worker.logText()).contains("reconciled 1 dispatches of worker " + workerId);
        assertThat(check(health(worker, "started").body, "started")
                        .path("data")
                        .path("reconciliation")
                        .asText())
                .isEqualTo("done");
        awaitStatus(worker, "ready", 200);
        // A bound, not a measure: the engine may be busy with other tests' containers.
        JsonNode record = worker.awaitTerminal(left, Duration.ofSeconds(90));
        assertThat(record.path("status").asText()).isEqualTo("succeeded");
        assertThat(record.path("result").path("stdout").asText()).isEqualTo("taken up\n");
    }

    private void unreadyWhileTheEngineHangs(WorkerProcess worker) throws Exception {
        unreadyWhile(worker, Engine::freeze, Engine::thaw, "docker", "did not answer a ping within 2 s");
    }

    private void unreadyWhileTheStoreIsCutOff(WorkerProcess worker, TcpProxy relay) throws Exception {
        unreadyWhile(worker, relay::cut, relay::restore, "store", "the store failed: ");
    }

    /** Readiness down with {@code check} saying {@code problem} while the fault lasts, then up; the rest up all along. */
    private void unreadyWhile(WorkerProcess worker, Runnable fault, Runnable mend, String check, String problem)
            throws Exception {
        fault.run();
        try {
            JsonNode ready = awaitStatus(worker, "ready", 503);
            assertThat(check(ready, check).path("status").asText()).isEqualTo("DOWN");
            assertThat(check(ready, check).path("data").path("problem").asText())
                    .contains(problem);
            assertThat(health(worker, "live").status).isEqualTo(200);
            assertThat(health(worker, "started").status).isEqualTo(200);
        } finally {
            mend.run();
        }
        awaitStatus(worker, "ready", 200);
        assertThat(health(worker, "live").status).isEqualTo(200);
    }

    private void unreadyWhileDraining(WorkerProcess worker, DataSource store) throws Exception {
        String id = worker.submit(WorkerClient.script("echo started; sleep 4; echo finished"));
        worker.awaitRecord(
                id,
                Duration.ofSeconds(90),
                r -> "running".equals(r.path("status").asText()));
        worker.terminate();
        JsonNode ready = awaitStatus(worker, "ready", 503);
        assertThat(check(ready, "accepting").path("status").asText()).isEqualTo("DOWN");
        assertThat(health(worker, "live").status).isEqualTo(200);
        assertThat(worker.record(id).path("status").asText()).isEqualTo("running");
        assertThat(worker.awaitExit(Duration.ofSeconds(60))).isTrue();
        assertThat(statusInStore(store, id)).as("finished while draining").isEqualTo("succeeded");
    }

    private record Health(int status, JsonNode body) {}

    private static Health health(WorkerClient worker, String probe) throws IOException {
        HttpResponse<String> response = worker.probe("/q/health/" + probe);
        return new Health(response.statusCode(), JSON.readTree(response.body()));
    }

    private static JsonNode awaitStatus(WorkerClient worker, String probe, int status) {
        return await().atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(200))
                .ignoreExceptions()
                .until(() -> health(worker, probe), h -> h.status == status)
                .body;
    }

    private static JsonNode check(JsonNode health, String name) {
        for (JsonNode check : health.path("checks")) {
            if (name.equals(check.path("name").asText())) {
                return check;
            }
        }
        throw new AssertionError("no check " + name + " in " + health);
    }

    private static String statusInStore(DataSource store, String id) throws SQLException {
        try (Connection c = store.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT status FROM dispatches WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** The test server's host and port, as {@link TestStores#postgresUrl} names them. */
    private static String[] postgres() {
        String address = TestStores.postgresUrl(DATABASE).replaceFirst("^jdbc:postgresql://", "");
        return address.substring(0, address.indexOf('/')).split(":");
    }

    private static Map<String, String> environment(String workerId, String store, Map<String, String> extra) {
        Map<String, String> env = WorkerProcess.environment(workerId, extra);
        env.put("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://" + store + "/" + DATABASE);
        env.put("QUARKUS_DATASOURCE_USERNAME", TestStores.postgresUser());
        env.put("QUARKUS_DATASOURCE_PASSWORD", TestStores.postgresPassword());
        env.put("SLUICE_DISPATCH_TICK", "1s");
        env.put("SLUICE_STORE_PROBE_INTERVAL", "1s");
        return env;
    }
}
