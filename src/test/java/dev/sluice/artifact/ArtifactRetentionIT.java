package dev.sluice.artifact;

import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/** Past sluice.artifacts.retention (two seconds here) an artifact answers 410, while the record still lists it. */
@QuarkusTest
@TestProfile(Profiles.ShortArtifactRetention.class)
class ArtifactRetentionIT {

    @Test
    void anArtifactRemovedByRetentionIsGoneAndSaysSo() {
        JsonPath record = awaitTerminal(
                submit(script("mkdir /sluice/out/artifacts && echo kept for a while > /sluice/out/artifacts/a.txt")));
        String href = record.getString("result.artifacts[0].href");
        assertThat(href).isEqualTo("/v1/dispatches/" + record.getString("id") + "/artifacts/a.txt");

        Response gone = await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> given().get(href), r -> r.statusCode() != 200);

        assertThat(gone.statusCode()).isEqualTo(410);
        assertThat(gone.contentType()).isEqualTo("application/problem+json");
        assertThat(gone.jsonPath().getString("type")).endsWith("artifact-gone");
        assertThat(given().get("/v1/dispatches/" + record.getString("id"))
                        .jsonPath()
                        .getString("result.artifacts[0].name"))
                .isEqualTo("a.txt");
        // An unknown name of the same dispatch is gone too: the artifacts are removed together.
        assertThat(given().get("/v1/dispatches/" + record.getString("id") + "/artifacts/other")
                        .statusCode())
                .isEqualTo(410);
    }
}
