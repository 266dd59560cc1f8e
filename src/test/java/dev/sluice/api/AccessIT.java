package dev.sluice.api;

import static dev.sluice.testsupport.Dispatches.script;
import static io.restassured.RestAssured.given;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.sluice.actions.Problem;
import dev.sluice.testsupport.Management;
import dev.sluice.testsupport.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;

/** With tokens configured, /v1 and /mcp need one of them; the probes, on the management port, do not. */
@QuarkusTest
@TestProfile(Profiles.Tokens.class)
class AccessIT {

    @Test
    void v1RequiresABearerToken() {
        given().get("/v1/dispatches")
                .then()
                .statusCode(401)
                .contentType(Problem.MEDIA_TYPE)
                .header("WWW-Authenticate", "Bearer");
        given().header("Authorization", "Bearer wrong")
                .get("/v1/dispatches")
                .then()
                .statusCode(401);
        given().header("Authorization", "Basic dG9rZW4tYWxwaGE=")
                .get("/v1/dispatches")
                .then()
                .statusCode(401);
        given().header("Authorization", "Bearer token-alpha-0123456789")
                .get("/v1/dispatches")
                .then()
                .statusCode(200);
        given().header("Authorization", "bearer token-beta-0123456789")
                .get("/v1/dispatches")
                .then()
                .statusCode(200);
        given().get("/v1/dispatches/d-1/artifacts/notes.txt").then().statusCode(401); // every /v1 route
        given().header("Authorization", "Bearer token-alpha-0123456789")
                .get("/v1/dispatches/d-1/artifacts/notes.txt")
                .then()
                .statusCode(404);
    }

    @Test
    void eventStreamsNeedATokenToo() {
        given().get("/v1/events").then().statusCode(401).contentType(Problem.MEDIA_TYPE);
        given().get("/v1/dispatches/d-unknown/events").then().statusCode(401);
        given().header("Authorization", "Bearer token-alpha-0123456789")
                .get("/v1/dispatches/d-unknown/events")
                .then()
                .statusCode(404)
                .contentType(Problem.MEDIA_TYPE);
    }

    /** The MCP server takes the same tokens: its routes are not REST routes, so its own filter checks them. */
    @Test
    void theMcpServerRequiresTheSameTokens() {
        String initialize = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"access\",\"version\":\"1\"}}}";
        for (String path : List.of("/mcp", "/mcp/", "/mcp/sse", "/mcp/messages/x", "/./mcp")) {
            given().contentType(ContentType.JSON)
                    .accept("application/json, text/event-stream")
                    .header("Authorization", "Bearer wrong")
                    .body(initialize)
                    .post(path)
                    .then()
                    .statusCode(401)
                    .contentType(Problem.MEDIA_TYPE)
                    .header("WWW-Authenticate", "Bearer");
        }
        given().contentType(ContentType.JSON)
                .accept("application/json, text/event-stream")
                .header("Authorization", "Bearer token-beta-0123456789")
                .body(initialize)
                .post("/mcp")
                .then()
                .statusCode(200)
                .body("result.serverInfo.name", org.hamcrest.Matchers.equalTo("sluice"));
    }

    @Test
    void aRefusedPostCreatesNothing() {
        given().contentType(ContentType.JSON)
                .body(script("echo hi"))
                .post("/v1/dispatches")
                .then()
                .statusCode(401);
        given().header("Authorization", "Bearer token-alpha-0123456789")
                .queryParam("limit", 1)
                .get("/v1/dispatches")
                .then()
                .statusCode(200)
                .body("items", org.hamcrest.Matchers.empty());
    }

    /**
     * Probes, metrics and the API document answer on the management port, with no
     * token; the API port does not serve them at all (ADR 0053). Swagger UI is off
     * unless enabled.
     */
    @Test
    void probesMetricsAndTheDocumentAreOnTheManagementPortOnly() {
        for (String path :
                List.of("/q/health/live", "/q/health/ready", "/q/health/started", "/q/metrics", "/q/openapi")) {
            Management.given().get(path).then().statusCode(200);
            given().get(path).then().statusCode(401); // the API port asks for a token whatever the path
            given().header("Authorization", "Bearer token-alpha-0123456789")
                    .get(path)
                    .then()
                    .statusCode(404);
        }
        given().header("Authorization", "Bearer token-alpha-0123456789")
                .get("/q/health")
                .then()
                .statusCode(404);
        Management.given().get("/q/swagger-ui/").then().statusCode(404);
        given().header("Authorization", "Bearer token-alpha-0123456789")
                .get("/q/swagger-ui/")
                .then()
                .statusCode(404);
    }
}
