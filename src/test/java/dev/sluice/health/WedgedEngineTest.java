package dev.sluice.health;

import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.post;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.Management;
import dev.sluice.testsupport.Profiles;
import dev.sluice.testsupport.ScriptedEngine;
import dev.sluice.testsupport.ScriptedEngineResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

/**
 * An engine that answers its ping but whose calls hang (ADR 0016): a dispatch
 * whose create runs past the call timeout ends as {@code docker_unavailable}
 * at once, saying so; readiness goes down, naming the timing out as the cause,
 * new dispatches are refused, and all comes back by itself once calls are
 * answered again.
 */
@QuarkusTest
@TestProfile(Profiles.ScriptedEngine.class)
class WedgedEngineTest {

    @Test
    void aWedgedEngineEndsTheDispatchTakesReadinessDownAndRecovers() {
        awaitReady();
        ScriptedEngine engine = ScriptedEngineResource.engine();
        // It still answers its ping and describes the image; its containers' calls, and the monitor's probes, hang.
        engine.replies(request -> request.endsWith("/_ping") || request.contains("/images/")
                ? ScriptedEngineResource.healthy().apply(request)
                : ScriptedEngine.Fault.SILENT);
        try {
            String id = submit(script("echo never"));
            JsonPath record = awaitTerminal(id, Duration.ofSeconds(20));

            // Ended by the create's own timeout, not queued again to wait on the engine.
            assertThat(record.getString("status")).isEqualTo("error");
            assertThat(record.getString("result.error.code")).isEqualTo("docker_unavailable");
            assertThat(record.getString("result.error.message"))
                    .isEqualTo("create: the Docker engine did not answer within 1 s");

            Management.given()
                    .get("/q/health/ready")
                    .then()
                    .statusCode(503)
                    .body("checks.find { it.name == 'docker' }.status", equalTo("DOWN"))
                    .body("checks.find { it.name == 'docker' }.data.calls", equalTo("timing out"))
                    // The latest call to time out: the create, or a periodic list that hung after it.
                    .body(
                            "checks.find { it.name == 'docker' }.data.problem",
                            containsString("did not answer within 1 s"));
            post(script("echo refused"))
                    .then()
                    .statusCode(503)
                    .body("type", equalTo("urn:problem-type:sluice:engine-unavailable"));
        } finally {
            engine.replies(ScriptedEngineResource.healthy());
        }
        awaitReady();
        Management.given()
                .get("/q/health/ready")
                .then()
                .body("checks.find { it.name == 'docker' }.data.calls", equalTo("answered"));
    }

    /** A bound, not a measure: a loaded machine's start-up and warm-up take their time. */
    private static void awaitReady() {
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> Management.given().get("/q/health/ready").statusCode() == 200);
    }
}
