package dev.sluice.health;

import static dev.sluice.testsupport.Dispatches.post;
import static dev.sluice.testsupport.Dispatches.script;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.Management;
import dev.sluice.testsupport.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** With no engine: not ready, still alive, and POST is a 503 that creates nothing. */
@QuarkusTest
@TestProfile(Profiles.EngineDown.class)
class EngineDownIT {

    @Test
    void readinessIsDownAndLivenessUp() {
        Management.given()
                .get("/q/health/ready")
                .then()
                .statusCode(503)
                .body("checks.find { it.name == 'docker' }.status", equalTo("DOWN"))
                .body("checks.find { it.name == 'store' }.status", equalTo("UP"));
        Management.given().get("/q/health/live").then().statusCode(200);
    }

    /** Nothing of a previous instance to take up: started without the engine, and only not ready (ADR 0067). */
    @Test
    void startedWithNothingToTakeUp() {
        await().atMost(Duration.ofSeconds(30))
                .until(() -> Management.given().get("/q/health/started").statusCode() == 200);
        Management.given()
                .get("/q/health/ready")
                .then()
                .statusCode(503)
                .body("checks.find { it.name == 'started' }.status", equalTo("UP"));
    }

    @Test
    void postAnswers503WithRetryAfterAndCreatesNothing() {
        post(script("echo hi"))
                .then()
                .statusCode(503)
                .contentType("application/problem+json")
                .header("Retry-After", "3")
                .body("type", equalTo("urn:problem-type:sluice:engine-unavailable"));
        given().get("/v1/dispatches").then().statusCode(200).body("items.size()", equalTo(0));
    }

    @Test
    void readsStillWork() {
        given().get("/v1/dispatches/none").then().statusCode(404);
        Management.given().get("/q/health").then().body("checks.name", hasItem("worker"));
    }
}
