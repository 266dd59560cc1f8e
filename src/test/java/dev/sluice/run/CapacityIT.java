package dev.sluice.run;

import static dev.sluice.testsupport.Dispatches.awaitStatus;
import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.get;
import static dev.sluice.testsupport.Dispatches.post;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/** One running, two queued: a fourth dispatch is 429 with Retry-After; queued ones start in order. */
@QuarkusTest
@TestProfile(Profiles.SmallCapacity.class)
class CapacityIT {

    @Test
    void pastRunningAndQueuedAPostIs429AndQueuedOnesStartInOrder() {
        String running = submit(script("sleep 2; echo first"));
        awaitStatus(running, "running");
        String second = submit(script("echo second"));
        String third = submit(script("echo third"));
        assertThat(get(second).getString("status")).isEqualTo("queued");

        Response refused = post(script("echo fourth"));
        refused.then().statusCode(429).contentType("application/problem+json").header("Retry-After", "7");
        assertThat(given().queryParam("limit", 10)
                        .get("/v1/dispatches")
                        .then()
                        .extract()
                        .jsonPath()
                        .getList("items.id"))
                .startsWith(third, second, running);

        List<Instant> started = List.of(running, second, third).stream()
                .map(id -> awaitTerminal(id).getString("result.startedAt"))
                .map(Instant::parse)
                .toList();
        assertThat(started).isSorted();
        assertThat(awaitTerminal(third).getString("result.stdout")).isEqualTo("third\n");
        // Room again once they are done.
        assertThat(awaitTerminal(submit(script("echo later"))).getString("status"))
                .isEqualTo("succeeded");
    }

    @Test
    void cancellingAQueuedDispatchEndsItWithoutAContainer() {
        String running = submit(script("sleep 2"));
        awaitStatus(running, "running");
        String queued = submit(script("echo never"));
        given().delete("/v1/dispatches/" + queued)
                .then()
                .statusCode(200)
                .body("status", org.hamcrest.Matchers.equalTo("cancelled"));
        var r = awaitTerminal(queued);
        assertThat(r.getString("result.status")).isEqualTo("cancelled");
        assertThat(r.getString("result.startedAt")).isNull();
        awaitTerminal(running);
    }
}
