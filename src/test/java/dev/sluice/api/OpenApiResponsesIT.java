package dev.sluice.api;

import static dev.sluice.testsupport.Dispatches.awaitStatus;
import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.post;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sluice.testsupport.Management;
import dev.sluice.testsupport.Program;
import dev.sluice.testsupport.Receiver;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * Real answers of the worker, for every operation and every refusal a test
 * can provoke without reconfiguring it, checked against the served OpenAPI
 * document by the validators its readers use (src/test/node/validate-openapi.mjs):
 * the document is valid OpenAPI 3.1, each answer's status and content type are
 * declared by its operation, and each body matches the declared schema with no
 * property the schema does not name and none it requires missing.
 */
@QuarkusTest
class OpenApiResponsesIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Receiver receiver = Receiver.on("127.0.0.1");
    private final List<ObjectNode> answers = new ArrayList<>();

    @AfterEach
    void close() {
        receiver.close();
    }

    @Test
    void everyAnswerMatchesTheDocument() throws IOException {
        // A truncated stdout (an overflow), metadata, and a callback delivered at the second attempt (a history).
        receiver.then(Receiver.status(500));
        Map<String, Object> request = new HashMap<>(script("seq 1 2000; echo done >&2"));
        request.put("id", "openapi-full");
        request.put("output", Map.of("stdoutCapBytes", 1024));
        request.put("metadata", Map.of("task", "openapi", "attempt", 1));
        request.put("callbackUrl", receiver.url("/hooks"));
        answer("accepted", "createDispatch", post(request));
        answer("replayed", "createDispatch", post(request));
        request.put("metadata", Map.of("task", "other"));
        answer("id-conflict", "createDispatch", post(request));

        awaitTerminal("openapi-full");
        await().atMost(Duration.ofSeconds(30))
                .until(() -> "delivered"
                        .equals(given().get("/v1/dispatches/openapi-full").path("callback.state")));
        answer("finished with overflow and delivery", "getDispatch", given().get("/v1/dispatches/openapi-full"));
        answer("listing", "listDispatches", given().queryParam("limit", 1).get("/v1/dispatches"));
        answer("log range", "readLog", given().get("/v1/dispatches/openapi-full/logs/stdout"));
        answer("digest", "getDigest", given().get("/v1/dispatches/openapi-full/digest"));
        callback(
                "result",
                "createDispatch",
                "result",
                receiver.byWebhookId("msg_openapi-full").get("msg_openapi-full"));
        answer("redelivered", "redeliverResult", given().post("/v1/dispatches/openapi-full/redeliver"));
        answer("cancel of a terminal dispatch", "cancelDispatch", given().delete("/v1/dispatches/openapi-full"));

        // A digest for a callback body.
        Map<String, Object> digested = new HashMap<>(script("echo digested"));
        digested.put("id", "openapi-digest");
        digested.put("callbackMode", "digest");
        digested.put("callbackUrl", receiver.url("/hooks/digest"));
        answer("accepted, digest callback", "createDispatch", post(digested));
        await().atMost(Duration.ofSeconds(60))
                .until(() -> receiver.byWebhookId("msg_openapi-digest").size() == 1);
        callback(
                "digest",
                "createDispatch",
                "result",
                receiver.byWebhookId("msg_openapi-digest").get("msg_openapi-digest"));

        // An error result (with an error object, no start), which has no log.
        String missing = submit(Map.of("image", "sluice-test/no-such-image:1", "imagePullPolicy", "never"));
        awaitTerminal(missing);
        answer("error result", "getDispatch", given().get("/v1/dispatches/" + missing));
        answer("log-gone", "readLog", given().get("/v1/dispatches/" + missing + "/logs/stderr"));
        answer("not-redeliverable", "redeliverResult", given().post("/v1/dispatches/" + missing + "/redeliver"));

        // A running dispatch, stopped.
        String running = submit(script("sleep 60"));
        awaitStatus(running, "running");
        answer("running, no callback", "getDispatch", given().get("/v1/dispatches/" + running));
        answer("cancel of a running dispatch", "cancelDispatch", given().delete("/v1/dispatches/" + running));
        awaitTerminal(running);

        // Artifacts: whole, a range, past the end, an unknown name.
        String artifacts = submit(script("mkdir /sluice/out/artifacts && echo kept > /sluice/out/artifacts/a.txt"));
        awaitTerminal(artifacts);
        String artifact = "/v1/dispatches/" + artifacts + "/artifacts/a.txt";
        answer("artifact", "readArtifact", given().get(artifact));
        answer(
                "artifact range",
                "readArtifact",
                given().header("Range", "bytes=0-1").get(artifact));
        answer(
                "range-not-satisfiable",
                "readArtifact",
                given().header("Range", "bytes=99-").get(artifact));
        answer("no such artifact", "readArtifact", given().get(artifact + ".gone"));

        answer("not-found", "getDispatch", given().get("/v1/dispatches/no-such-dispatch"));
        answer("no such stream", "readLog", given().get("/v1/dispatches/openapi-full/logs/stdin"));
        answer(
                "bad offset",
                "readLog",
                given().queryParam("offset", -1).get("/v1/dispatches/openapi-full/logs/stdout"));
        answer("bad limit", "listDispatches", given().queryParam("limit", 0).get("/v1/dispatches"));
        answer(
                "events of an unknown dispatch",
                "streamDispatchEvents",
                given().get("/v1/dispatches/no-such-dispatch/events"));
        answer(
                "metadataValue without metadataKey",
                "streamAllEvents",
                given().queryParam("metadataValue", "blue").get("/v1/events"));
        answer(
                "body-required",
                "createDispatch",
                given().contentType(ContentType.JSON).post("/v1/dispatches"));
        answer(
                "malformed-body",
                "createDispatch",
                given().contentType(ContentType.JSON).body("[1]").post("/v1/dispatches"));
        answer("validation-failed", "createDispatch", post(Map.of("image", "sluice-agent:test", "timeout", "PT7H")));
        answer(
                "unsupported type",
                "createDispatch",
                given().contentType(ContentType.TEXT).body("{}").post("/v1/dispatches"));
        answer(
                "body-too-large",
                "createDispatch",
                post(Map.of("image", "sluice-agent:test", "input", "x".repeat(13 << 20))));

        // A group: accepted with a member running, read again once both ended, and refused.
        Response group = given().contentType(ContentType.JSON)
                .body(Map.of(
                        "dispatches",
                        List.of(script("echo one"), script("echo two")),
                        "callbackUrl",
                        receiver.url("/hooks/group"),
                        "metadata",
                        Map.of("task", "openapi")))
                .post("/v1/dispatch-groups");
        answer("group accepted", "createDispatchGroup", group);
        String groupId = group.path("id");
        await().atMost(Duration.ofSeconds(60))
                .until(() -> "finished"
                        .equals(given().get("/v1/dispatch-groups/" + groupId).path("status")));
        answer("group finished", "getDispatchGroup", given().get("/v1/dispatch-groups/" + groupId));
        await().atMost(Duration.ofSeconds(60))
                .until(() -> receiver.byWebhookId("msg_" + groupId + "_final").size() == 1);
        Map<String, Receiver.Request> messages = receiver.byWebhookId("msg_" + groupId + "_");
        assertThat(messages).hasSizeGreaterThanOrEqualTo(2);
        for (Map.Entry<String, Receiver.Request> message : messages.entrySet()) {
            callback(message.getKey(), "createDispatchGroup", "groupMessage", message.getValue());
        }
        answer("group not-found", "getDispatchGroup", given().get("/v1/dispatch-groups/g-" + "0".repeat(32)));
        answer(
                "group validation-failed",
                "createDispatchGroup",
                given().contentType(ContentType.JSON)
                        .body(Map.of("dispatches", List.of(Map.of("image", "sluice-agent:test", "timeout", "x"))))
                        .post("/v1/dispatch-groups"));

        // The walk met every status it means to, so that a refusal that stopped happening is noticed.
        assertThat(answers.stream().map(a -> a.get("status").asText()).distinct())
                .containsExactlyInAnyOrder("200", "202", "206", "400", "404", "409", "410", "413", "415", "416", "422");

        ObjectNode check = JSON.createObjectNode();
        check.set(
                "document",
                JSON.readTree(Management.given()
                        .queryParam("format", "json")
                        .get("/q/openapi")
                        .asString()));
        check.putArray("answers").addAll(answers);
        Program.Result result = Program.node(check.toString(), "validate-openapi.mjs");
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.stdout())
                .contains("valid OpenAPI 3.1")
                .contains("ok callback result", "ok callback digest", "ok digest (200)")
                .containsPattern("ok callback msg_g-[0-9a-f]{32}_final")
                .contains(answers.size() + " answers checked, 0 failed");
    }

    /** Records a body the worker POSTed to a callback URL, to check against that callback's declared body. */
    private void callback(String label, String operationId, String name, Receiver.Request request) throws IOException {
        assertThat(request).as(label).isNotNull();
        answers.add(JSON.createObjectNode()
                .put("label", "callback " + label)
                .put("operationId", operationId)
                .put("callback", name)
                .put("status", "200")
                .put("contentType", "application/json")
                .set("body", JSON.readTree(request.decodedBody())));
    }

    /** Records an answer to check; a body that is not JSON (a log range) is checked as declared only. */
    private void answer(String label, String operationId, Response response) throws IOException {
        String contentType = response.contentType().split(";")[0].trim();
        ObjectNode answer = JSON.createObjectNode()
                .put("label", label + " (" + response.statusCode() + ")")
                .put("operationId", operationId)
                .put("status", Integer.toString(response.statusCode()))
                .put("contentType", contentType);
        if (contentType.endsWith("json")) {
            answer.set("body", JSON.readTree(response.asString()));
        }
        answers.add(answer);
    }
}
