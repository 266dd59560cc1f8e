package dev.sluice.api;

import static dev.sluice.testsupport.Dispatches.script;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.sluice.actions.Problem;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.testsupport.Digests;
import dev.sluice.testsupport.Profiles;
import dev.sluice.testsupport.Program;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * Tenants cannot see each other (ADR 0052): two tenants use the same id for
 * different dispatches, each reads its own bytes, and every route answers a
 * name of the other's dispatch exactly as it answers a name nobody used.
 */
@QuarkusTest
@TestProfile(Profiles.Tenants.class)
class TenancyIT {

    @Inject
    DockerClients docker;

    private static final Set<String> TERMINAL = Set.of("succeeded", "failed", "timed_out", "cancelled", "error");

    private static RequestSpecification as(String token) {
        return given().header("Authorization", "Bearer " + token);
    }

    private static Response post(String token, Map<String, Object> body) {
        return as(token).contentType(ContentType.JSON).body(body).post("/v1/dispatches");
    }

    private static Map<String, Object> named(String id, String script) {
        Map<String, Object> body = new HashMap<>(script(script));
        body.put("id", id);
        return body;
    }

    private static JsonPath awaitTerminal(String token, String id) {
        return await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () -> as(token)
                                .get("/v1/dispatches/" + id)
                                .then()
                                .statusCode(200)
                                .extract()
                                .jsonPath(),
                        r -> TERMINAL.contains(r.getString("status")));
    }

    @Test
    void twoTenantsUseOneIdForTwoDispatchesAndEachReadsItsOwnBytes() {
        String id = "review-" + System.nanoTime();
        String alphaOut = "alpha says " + "a".repeat(5000) + "\n";
        String betaOut = "beta says " + "b".repeat(7000) + "\n";
        post(Profiles.Tenants.ALPHA, named(id, "printf '%s' \"$0\"; printf '\\n'".replace("$0", alphaOut.strip())))
                .then()
                .statusCode(202)
                .body("id", org.hamcrest.Matchers.equalTo(id))
                .body("tenant", org.hamcrest.Matchers.equalTo("alpha"))
                .header("Location", org.hamcrest.Matchers.endsWith("/v1/dispatches/" + id));
        post(Profiles.Tenants.BETA, named(id, "printf '%s' \"$0\"; printf '\\n'".replace("$0", betaOut.strip())))
                .then()
                .statusCode(202)
                .body("tenant", org.hamcrest.Matchers.equalTo("beta"));

        JsonPath alpha = awaitTerminal(Profiles.Tenants.ALPHA, id);
        JsonPath beta = awaitTerminal(Profiles.Tenants.BETA, id);
        assertThat(alpha.getString("result.dispatchId")).isEqualTo(id);
        assertThat(alpha.getString("result.stdout")).isEqualTo(alphaOut);
        assertThat(beta.getString("result.stdout")).isEqualTo(betaOut);
        assertThat(alpha.getString("result.stdoutDigest.sha256"))
                .isEqualTo(Digests.sha256(alphaOut.getBytes(StandardCharsets.UTF_8)));
        assertThat(beta.getString("result.stdoutDigest.sha256"))
                .isEqualTo(Digests.sha256(betaOut.getBytes(StandardCharsets.UTF_8)));
        assertThat(alpha.getString("result.logs.stdout")).isEqualTo("/v1/dispatches/" + id + "/logs/stdout");

        byte[] betaLog = as(Profiles.Tenants.BETA)
                .get("/v1/dispatches/" + id + "/logs/stdout")
                .then()
                .statusCode(200)
                .extract()
                .asByteArray();
        assertThat(betaLog).isEqualTo(betaOut.getBytes(StandardCharsets.UTF_8));
        assertThat(as(Profiles.Tenants.ALPHA)
                        .get("/v1/dispatches/" + id + "/digest")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getString("id"))
                .isEqualTo(id);

        // The operator names each by its key, and sees both in one listing.
        as(Profiles.Tenants.OPERATOR)
                .get("/v1/dispatches/alpha." + id)
                .then()
                .statusCode(200)
                .body("tenant", org.hamcrest.Matchers.equalTo("alpha"))
                .body("result.stdout", org.hamcrest.Matchers.equalTo(alphaOut));
        List<Map<String, String>> all = listing(Profiles.Tenants.OPERATOR);
        assertThat(all.stream().filter(i -> id.equals(i.get("id"))).map(i -> i.get("tenant")))
                .containsExactlyInAnyOrder("alpha", "beta");
        List<Map<String, String>> alphas = listing(Profiles.Tenants.ALPHA);
        assertThat(alphas)
                .isNotEmpty()
                .allSatisfy(i -> assertThat(i.get("tenant")).isEqualTo("alpha"));
    }

    @Test
    void anotherTenantsDispatchAnswersExactlyAsOneThatDoesNotExist() {
        String id = "only-alpha-" + System.nanoTime();
        String unused = "never-used-" + System.nanoTime();
        post(Profiles.Tenants.ALPHA, named(id, "mkdir -p /sluice/out/artifacts && echo x > /sluice/out/artifacts/a"))
                .then()
                .statusCode(202);
        awaitTerminal(Profiles.Tenants.ALPHA, id);

        for (String route : List.of(
                "GET /v1/dispatches/%s",
                "GET /v1/dispatches/%s/digest",
                "GET /v1/dispatches/%s/logs/stdout",
                "GET /v1/dispatches/%s/artifacts/a",
                "GET /v1/dispatches/%s/events",
                "DELETE /v1/dispatches/%s",
                "POST /v1/dispatches/%s/redeliver")) {
            Response theirs = call(Profiles.Tenants.BETA, route, id);
            Response nobodys = call(Profiles.Tenants.BETA, route, unused);
            assertThat(theirs.statusCode()).as(route).isEqualTo(404);
            assertThat(theirs.contentType()).as(route).isEqualTo(Problem.MEDIA_TYPE);
            assertThat(theirs.asString().replace(id, "ID"))
                    .as(route)
                    .isEqualTo(nobodys.asString().replace(unused, "ID"));
        }
        // A key is no way in for a tenant, whichever tenant it names.
        call(Profiles.Tenants.BETA, "GET /v1/dispatches/%s", "alpha." + id)
                .then()
                .statusCode(404);
        // The owner still has it, unchanged by the attempts.
        as(Profiles.Tenants.ALPHA)
                .get("/v1/dispatches/" + id)
                .then()
                .statusCode(200)
                .body("status", org.hamcrest.Matchers.equalTo("succeeded"));
        // Listing is confined too, and a cursor of another tenant's id is not one.
        assertThat(listing(Profiles.Tenants.BETA)).noneMatch(i -> id.equals(i.get("id")));
        as(Profiles.Tenants.BETA)
                .queryParam("after", id)
                .get("/v1/dispatches")
                .then()
                .statusCode(422)
                .body("errors[0].field", org.hamcrest.Matchers.equalTo("after"));
    }

    @Test
    void groupsBelongToTheirTenant() {
        Map<String, Object> group = Map.of("dispatches", List.of(script("echo one"), script("echo two")));
        JsonPath created = as(Profiles.Tenants.ALPHA)
                .contentType(ContentType.JSON)
                .body(group)
                .post("/v1/dispatch-groups")
                .then()
                .statusCode(202)
                .body("tenant", org.hamcrest.Matchers.equalTo("alpha"))
                .extract()
                .jsonPath();
        String groupId = created.getString("id");
        assertThat(groupId).startsWith("g-");
        as(Profiles.Tenants.ALPHA).get("/v1/dispatch-groups/" + groupId).then().statusCode(200);
        as(Profiles.Tenants.BETA).get("/v1/dispatch-groups/" + groupId).then().statusCode(404);
        for (String member : created.getList("members.id", String.class)) {
            as(Profiles.Tenants.BETA).get("/v1/dispatches/" + member).then().statusCode(404);
            awaitTerminal(Profiles.Tenants.ALPHA, member);
        }
        as(Profiles.Tenants.OPERATOR)
                .get("/v1/dispatch-groups/alpha." + groupId)
                .then()
                .statusCode(200)
                .body("id", org.hamcrest.Matchers.equalTo(groupId));
    }

    @Test
    void containersCarryTheirTenant() {
        String id = "labelled-" + System.nanoTime();
        post(Profiles.Tenants.BETA, named(id, "true")).then().statusCode(202);
        awaitTerminal(Profiles.Tenants.BETA, id);
        assertThat(docker.control()
                        .listContainersCmd()
                        .withShowAll(true)
                        .withLabelFilter(Map.of("dev.sluice.dispatch-id", "beta." + id))
                        .exec())
                .singleElement()
                .satisfies(c -> assertThat(c.getLabels()).containsEntry("dev.sluice.tenant", "beta"));
    }

    @Test
    void aStreamOfAllDispatchesShowsTheCallersTenantOnly() {
        String theirs = "unseen-" + System.nanoTime();
        String own = "seen-" + System.nanoTime();
        try (Program.Running beta = Program.startNode(
                Map.of("SLUICE_TOKEN", Profiles.Tenants.BETA),
                "sse-client.mjs",
                "http://localhost:" + RestAssured.port + "/v1/events")) {
            beta.awaitLine(line -> line.contains("\"status\":200"), Duration.ofSeconds(60));
            post(Profiles.Tenants.ALPHA, named(theirs, "true")).then().statusCode(202);
            awaitTerminal(Profiles.Tenants.ALPHA, theirs);
            post(Profiles.Tenants.BETA, named(own, "true")).then().statusCode(202);
            beta.awaitLine(line -> line.contains("\"succeeded\"") && line.contains(own), Duration.ofSeconds(60));
            assertThat(beta.lines()).noneMatch(line -> line.contains(theirs));
        }
    }

    /** The newest 100 items of the listing a token sees. */
    private static List<Map<String, String>> listing(String token) {
        return as(token)
                .queryParam("limit", 100)
                .get("/v1/dispatches")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items");
    }

    private static Response call(String token, String route, String id) {
        String[] parts = route.split(" ");
        String path = parts[1].formatted(id);
        RequestSpecification request = as(token);
        return switch (parts[0]) {
            case "GET" -> request.get(path);
            case "DELETE" -> request.delete(path);
            default -> request.post(path);
        };
    }
}
