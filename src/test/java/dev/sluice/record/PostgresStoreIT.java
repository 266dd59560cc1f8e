package dev.sluice.record;

import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.get;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.sluice.concurrent.WarmUp;
import dev.sluice.store.Jdbc;
import dev.sluice.testsupport.Management;
import dev.sluice.testsupport.Profiles;
import dev.sluice.testsupport.Receiver;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

/** The whole worker on PostgreSQL, chosen by setting quarkus.datasource.jdbc.url. */
@QuarkusTest
@TestProfile(Profiles.Postgres.class)
class PostgresStoreIT {

    @Inject
    Event<WarmUp> warmUps;

    @Inject
    Jdbc jdbc;

    /** Its statements are PostgreSQL's, its result bodies go into rows: still nothing is left. */
    @Test
    void theWarmUpRunsOnPostgresAndLeavesNoRow() throws Exception {
        WarmUp warmUp = warmUps.fireAsync(new WarmUp(Clock.systemUTC(), Duration.ofMinutes(1)))
                .toCompletableFuture()
                .get(2, TimeUnit.MINUTES);

        assertThat(warmUp.steps())
                .extracting(WarmUp.Step::name)
                .containsExactly("api", "dispatch", "container", "output", "callback");
        assertThat(warmUp.steps()).allSatisfy(step -> assertThat(step.failure()).isNull());
        assertThat(jdbc.one("SELECT COUNT(*) FROM dispatches WHERE id LIKE 'warm-up-%'", row -> row.number(1)))
                .contains(0L);
    }

    @Test
    void theWorkerRunsOnPostgres() {
        Management.given()
                .get("/q/health/ready")
                .then()
                .statusCode(200)
                .body("checks.find { it.name == 'store' }.data.kind", equalTo("postgresql"));

        String id = "pg-" + UUID.randomUUID();
        Map<String, Object> body = new HashMap<>(script("echo on postgres"));
        body.put("id", id);
        body.put("metadata", Map.of("task", "pg"));
        assertThat(submit(body)).isEqualTo(id);
        JsonPath r = awaitTerminal(id);
        assertThat(r.getString("result.stdout")).isEqualTo("on postgres\n");
        assertThat(r.getString("metadata.task")).isEqualTo("pg");
        given().queryParam("status", "succeeded")
                .queryParam("limit", 100)
                .get("/v1/dispatches")
                .then()
                .statusCode(200)
                .body("items.id", org.hamcrest.Matchers.hasItem(id));
    }

    @Test
    void callbacksAreClaimedRetriedAndRecordedOnPostgres() {
        try (Receiver receiver = Receiver.on("127.0.0.1")) {
            receiver.then(Receiver.status(500));
            Map<String, Object> body = new HashMap<>(script("echo delivered from postgres"));
            body.put("callbackUrl", receiver.url("/hook"));
            String id = submit(body);
            JsonPath r = await().atMost(Duration.ofSeconds(30))
                    .until(() -> get(id), d -> "delivered".equals(d.getString("callback.state")));
            assertThat(r.getInt("callback.attempts")).isEqualTo(2);
            assertThat(r.getList("callback.history.status", Integer.class)).containsExactly(500, 200);
            assertThat(receiver.requests())
                    .extracting(q -> q.header("webhook-id"))
                    .containsOnly("msg_" + id);
        }
    }
}
