package dev.sluice.health;

import static dev.sluice.testsupport.Dispatches.awaitStatus;
import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.Engine;
import dev.sluice.testsupport.EngineWide;
import dev.sluice.testsupport.Management;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * The engine misbehaving under a running worker: hanging (SIGSTOP) and
 * restarting mid-dispatch. The API stays responsive, readiness follows the
 * engine, liveness never does, and no dispatch is left unfinished.
 */
@EngineWide
@QuarkusTest
class DaemonFaultIT {

    @Test
    void aHangingEngineMakesTheWorkerUnreadyButNeverUnresponsive() {
        Engine.requireOurs();
        String id = submit(script("echo before; sleep 2; echo after"));
        awaitStatus(id, "running");
        Engine.freeze();
        try {
            // Three slow pings mark the engine down; meanwhile every answer comes from the store.
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> Management.given().get("/q/health/ready").statusCode() == 503);
            Management.given().get("/q/health/live").then().statusCode(200);
            given().get("/v1/dispatches/" + id).then().statusCode(200);
            given().get("/v1/dispatches?limit=5").then().statusCode(200);
            given().contentType("application/json")
                    .body(script("echo refused"))
                    .post("/v1/dispatches")
                    .then()
                    .statusCode(503)
                    .header("Retry-After", org.hamcrest.Matchers.notNullValue());
        } finally {
            Engine.thaw();
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> Management.given().get("/q/health/ready").statusCode() == 200);
        JsonPath r = awaitTerminal(id);
        assertThat(r.getString("status")).isEqualTo("succeeded");
        assertThat(r.getString("result.stdout")).isEqualTo("before\nafter\n");
    }

    @Test
    void anEngineRestartMidDispatchEndsItWithAClearOutcomeNeverStuck() {
        Engine.requireOurs();
        String id = submit(script("echo before; sleep 60; echo never"));
        awaitStatus(id, "running");
        Engine.restart();

        JsonPath r = awaitTerminal(id, Duration.ofSeconds(90));
        // Without live-restore the engine stopped the container: either the worker saw the
        // engine go and says so, or it read the stopped container back from the log.
        if (r.getString("status").equals("error")) {
            assertThat(r.getString("result.error.code")).isIn(Set.of("docker_unavailable", "container_lost"));
        } else {
            assertThat(r.getString("status")).isEqualTo("failed");
            assertThat(r.getString("result.stdout")).startsWith("before\n").doesNotContain("never");
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> Management.given().get("/q/health/ready").statusCode() == 200);
        assertThat(awaitTerminal(submit(script("echo back"))).getString("result.stdout"))
                .isEqualTo("back\n");
    }
}
