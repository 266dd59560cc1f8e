package dev.sluice.run;

import static dev.sluice.testsupport.Dispatches.awaitStatus;
import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.get;
import static dev.sluice.testsupport.Dispatches.post;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.Profiles;
import dev.sluice.testsupport.TestDocker;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * A tenant's limits through the worker (ADR 0057): one running and one queued
 * for the tenant, though the worker has room for more; past them a 429 that
 * says it is the tenant's, not the worker's. The queued dispatch's request
 * comes back from the store when it starts, with the secrets the queue kept.
 */
@QuarkusTest
@TestProfile(Profiles.TenantCapacity.class)
class TenantCapacityIT {

    @Test
    void aTenantAtItsLimitGets429AndItsQueuedDispatchRunsItsStoredRequestWithItsSecrets() {
        String running = submit(script("sleep 2; echo first"));
        awaitStatus(running, "running");
        String queued = submit(Map.of(
                "image",
                TestDocker.AGENT_IMAGE,
                "command",
                List.of("sh", "-c", "cat; [ \"$AGENT_KEY\" = 'k3y-from-the-queue-only' ] && echo key-present"),
                "input",
                "input read back from the store\n",
                "secrets",
                Map.of("AGENT_KEY", "k3y-from-the-queue-only")));
        // The worker has a second slot; the tenant has not.
        assertThat(get(queued).getString("status")).isEqualTo("queued");

        Response refused = post(script("echo third"));
        refused.then().statusCode(429).contentType("application/problem+json").header("Retry-After", "7");
        assertThat(refused.asString())
                .isEqualTo(
                        "{\"type\":\"urn:problem-type:sluice:tenant-at-capacity\","
                                + "\"title\":\"The tenant is at capacity\",\"status\":429,"
                                + "\"detail\":\"this tenant's run slots and queue places are all taken; nothing was accepted\"}");
        given().contentType(ContentType.JSON)
                .body(Map.of("dispatches", List.of(script("echo a"), script("echo b"))))
                .post("/v1/dispatch-groups")
                .then()
                .statusCode(429)
                .header("Retry-After", "7");

        JsonPath done = awaitTerminal(queued);
        assertThat(done.getString("result.status")).isEqualTo("succeeded");
        assertThat(done.getString("result.stdout")).isEqualTo("input read back from the store\nkey-present\n");
        awaitTerminal(running);
        assertThat(given().queryParam("limit", 10)
                        .get("/v1/dispatches")
                        .then()
                        .extract()
                        .jsonPath()
                        .getList("items.id"))
                .startsWith(queued, running);
    }
}
