package dev.sluice.run;

import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.post;
import static dev.sluice.testsupport.Dispatches.script;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** Only allowed images may run; any other is 403 and nothing is created. */
@QuarkusTest
@TestProfile(Profiles.AllowList.class)
class AllowListIT {

    @Test
    void aRefusedImageIs403AndCreatesNothing() {
        post(Map.of("image", "docker.io/library/alpine:3"))
                .then()
                .statusCode(403)
                .contentType("application/problem+json");
        post(Map.of("image", "registry.example/other/x:1", "id", "refused-1"))
                .then()
                .statusCode(403);
        given().get("/v1/dispatches/refused-1").then().statusCode(404);
    }

    @Test
    void allowedImagesRun() {
        String id =
                post(script("echo allowed")).then().statusCode(202).extract().path("id");
        assertThat(awaitTerminal(id).getString("result.stdout")).isEqualTo("allowed\n");
    }
}
