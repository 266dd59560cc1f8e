package dev.sluice.group;

import static dev.sluice.testsupport.Dispatches.script;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.Dispatches;
import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.Signatures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * Dispatch groups against the real engine and a real receiver (ADR 0028):
 * members are real containers of the test agent writing real reports; what
 * the parent receives is measured, its signatures checked, and every member's
 * full result read back by reference.
 */
@QuarkusTest
class DispatchGroupIT {

    private static final Logger LOG = Logger.getLogger(DispatchGroupIT.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Receiver receiver = Receiver.on("127.0.0.1");

    @AfterEach
    void close() {
        receiver.close();
    }

    /** A report of about 2 KB: most of it findings, as an agent that looked closely writes. */
    private static String report(int n) throws Exception {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put(
                "summary",
                "Reviewed module " + n + ": the parser handles empty and oversized input, the retry loop backs off "
                        + "as documented, and two error paths lose their cause; nothing blocks a release.");
        report.put(
                "keyFindings",
                IntStream.range(0, 9)
                        .mapToObj(i -> "Finding " + i + " of module " + n + ": "
                                + "the handler at line " + (100 + i * 17) + " swallows an exception and returns "
                                + "an empty list, so callers cannot tell a failure from no data; log and rethrow.")
                        .toList());
        report.put("confidence", "high");
        report.put("verdict", "approve");
        report.put(
                "filesChanged",
                IntStream.range(0, 6)
                        .mapToObj(i -> "src/main/java/module" + n + "/Part" + i + ".java")
                        .toList());
        report.put("stats", Map.of("testsRun", 120 + n, "failures", 0, "coverage", "81%"));
        return JSON.writeValueAsString(report);
    }

    private static Map<String, Object> reporting(String report) {
        Map<String, Object> member =
                new HashMap<>(script("printf '%s' \"$REPORT\" > /sluice/out/report.json; echo done"));
        member.put("env", Map.of("REPORT", report));
        return member;
    }

    private static Response postGroup(Object body) {
        return given().contentType(ContentType.JSON).body(body).post("/v1/dispatch-groups");
    }

    /** The group's messages as the receiver got them, one per webhook-id (a retry repeats the same body). */
    private Map<String, Receiver.Request> messages(String groupId) {
        Map<String, Receiver.Request> byId = new LinkedHashMap<>();
        for (Receiver.Request r : receiver.requests()) {
            String id = r.header("webhook-id");
            if (id != null && id.startsWith("msg_" + groupId + "_")) {
                byId.putIfAbsent(id, r);
            }
        }
        return byId;
    }

    private Map<String, Receiver.Request> awaitFinal(String groupId, Duration within) {
        return await().atMost(within)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> messages(groupId), m -> m.containsKey("msg_" + groupId + "_final"));
    }

    @Test
    void thirtyAgentsAddLessThanTenKilobytesToTheParentAndEveryResultIsOneReferenceAway() throws Exception {
        List<Map<String, Object>> members = new ArrayList<>();
        List<Integer> reportSizes = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            String report = report(i);
            reportSizes.add(report.getBytes(StandardCharsets.UTF_8).length);
            members.add(reporting(report));
        }
        assertThat(reportSizes).allSatisfy(size -> assertThat(size).isBetween(1900, 2300));
        Response accepted = postGroup(Map.of(
                "dispatches", members, "callbackUrl", receiver.url("/hooks/group"), "metadata", Map.of("wave", 1)));
        assertThat(accepted.statusCode()).isEqualTo(202);
        String groupId = accepted.path("id");
        assertThat(accepted.header("Location")).endsWith("/v1/dispatch-groups/" + groupId);
        assertThat(accepted.<String>path("status")).isEqualTo("running");
        List<String> memberIds = accepted.path("members.id");
        assertThat(memberIds).hasSize(30).doesNotHaveDuplicates();

        Map<String, Receiver.Request> messages = awaitFinal(groupId, Duration.ofMinutes(5));

        long total = 0;
        List<String> reported = new ArrayList<>();
        List<String> modes = new ArrayList<>();
        for (Receiver.Request message : messages.values()) {
            assertThat(Signatures.verifies(message, Signatures.TEST_SECRETS.get(0)))
                    .as(message.header("webhook-id"))
                    .isTrue();
            total += message.body().length;
            JsonNode body = JSON.readTree(message.body());
            assertThat(body.path("groupId").asText()).isEqualTo(groupId);
            if (body.path("type").asText().equals("group.batch")) {
                modes.add(body.path("mode").asText());
                assertThat(message.header("webhook-id"))
                        .isEqualTo("msg_" + groupId + "_b" + body.path("batch").asInt());
            }
            body.path("items").forEach(item -> reported.add(item.path("id").asText()));
        }
        LOG.infof(
                "group of 30: %d messages, %d bytes in all, batch modes %s, reports %d to %d bytes",
                messages.size(),
                total,
                modes,
                reportSizes.stream().mapToInt(Integer::intValue).min().orElse(0),
                reportSizes.stream().mapToInt(Integer::intValue).max().orElse(0));
        assertThat(total).isLessThan(10_000);
        assertThat(reported).containsExactlyInAnyOrderElementsOf(memberIds);
        JsonNode last = JSON.readTree(messages.get("msg_" + groupId + "_final").body());
        assertThat(last.path("counts").path("succeeded").asInt()).isEqualTo(30);
        assertThat(last.path("budget").path("spentBytes").asLong()).isLessThanOrEqualTo(6144);

        for (String id : memberIds) {
            JsonPath full = Dispatches.get(id);
            assertThat(full.getString("status")).isEqualTo("succeeded");
            assertThat(full.getString("result.reportStatus")).isEqualTo("present");
            assertThat(full.getList("result.report.keyFindings")).hasSize(9);
            assertThat(full.getString("callback")).isNull();
        }
        JsonPath group = given().get("/v1/dispatch-groups/" + groupId)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(group.getString("status")).isEqualTo("finished");
        assertThat(group.getString("finishedAt")).isNotNull();
        assertThat(group.getInt("metadata.wave")).isEqualTo(1);
        assertThat(group.getList("members.id")).containsExactlyElementsOf(memberIds);
        assertThat(group.getList("members.digest.report.verdict")).containsOnly("approve");
        assertThat(group.getLong("budget.spentBytes"))
                .isEqualTo(last.path("budget").path("spentBytes").asLong());
    }

    @Test
    void aBatchOfDigestsCarriesEachMembersOwnDigest() throws Exception {
        List<Map<String, Object>> members = List.of(reporting(report(1)), reporting(report(2)), script("exit 3"));
        String groupId = postGroup(Map.of(
                        "dispatches", members, "callbackUrl", receiver.url("/hooks/g"), "maxDigestBytes", 1 << 20))
                .then()
                .statusCode(202)
                .extract()
                .path("id");

        Map<String, Receiver.Request> messages = awaitFinal(groupId, Duration.ofMinutes(2));

        Map<String, String> carried = new HashMap<>();
        for (Receiver.Request message : messages.values()) {
            assertThat(Signatures.verifies(message, Signatures.TEST_SECRETS.get(0)))
                    .isTrue();
            JsonNode body = JSON.readTree(message.body());
            if (body.path("type").asText().equals("group.batch")) {
                assertThat(body.path("mode").asText()).isEqualTo("digests");
                body.path("items").forEach(item -> carried.put(item.path("id").asText(), item.toString()));
            }
        }
        JsonNode last = JSON.readTree(messages.get("msg_" + groupId + "_final").body());
        assertThat(last.path("items").size()).isZero();
        assertThat(last.path("counts").path("succeeded").asInt()).isEqualTo(2);
        assertThat(last.path("counts").path("failed").asInt()).isEqualTo(1);
        assertThat(carried).hasSize(3);
        carried.forEach((id, digest) -> assertThat(digest)
                .isEqualTo(given().get("/v1/dispatches/" + id + "/digest").asString()));
    }

    @Test
    void aZeroBudgetSendsOnlyTheFinalCallbackWithReferences() throws Exception {
        String groupId = postGroup(Map.of(
                        "dispatches",
                        List.of(script("echo one"), script("echo two")),
                        "callbackUrl",
                        receiver.url("/hooks/none"),
                        "maxDigestBytes",
                        0))
                .then()
                .statusCode(202)
                .extract()
                .path("id");

        Map<String, Receiver.Request> messages = awaitFinal(groupId, Duration.ofMinutes(2));

        assertThat(messages).containsOnlyKeys("msg_" + groupId + "_final");
        JsonNode last = JSON.readTree(messages.get("msg_" + groupId + "_final").body());
        assertThat(last.path("batches").asInt()).isZero();
        assertThat(last.path("items")).hasSize(2);
        last.path("items").forEach(item -> {
            assertThat(item.path("status").asText()).isEqualTo("succeeded");
            assertThat(item.path("href").asText())
                    .isEqualTo("/v1/dispatches/" + item.path("id").asText());
            assertThat(item.has("report")).isFalse();
        });
    }

    // --- Refusals: a 422 naming member and field, and nothing accepted -------------------------------

    private static JsonPath refused(Object body, int status) {
        return postGroup(body).then().statusCode(status).extract().jsonPath();
    }

    private static void assertNoDispatch(String id) {
        given().get("/v1/dispatches/" + id).then().statusCode(404);
    }

    @Test
    void aGroupWithoutMembersOrWithTooManyIsRefused() {
        assertThat(refused(Map.of("dispatches", List.of()), 422).getList("errors.field"))
                .containsExactly("dispatches");
        assertThat(refused(Map.of(), 422).getList("errors.field")).containsExactly("dispatches");
        List<Map<String, Object>> many = new ArrayList<>();
        for (int i = 0; i < 51; i++) {
            many.add(Map.of("id", "too-many-" + i, "image", "sluice-agent:test"));
        }
        assertThat(refused(Map.of("dispatches", many), 422).getList("errors.field"))
                .containsExactly("dispatches");
        assertNoDispatch("too-many-0");
    }

    @Test
    void anUnknownFieldOfTheGroupOrOfAMemberIsNamed() {
        assertThat(refused(Map.of("dispatches", List.of(script("true")), "batchSize", 3), 422)
                        .getList("errors.field"))
                .containsExactly("batchSize");
        JsonPath problem =
                refused(Map.of("dispatches", List.of(script("true"), Map.of("imagee", "sluice-agent:test"))), 422);
        assertThat(problem.getList("errors.field")).containsExactly("dispatches.1.imagee");
        assertThat(problem.getString("errors[0].detail")).isEqualTo("is not a known field");
    }

    @Test
    void aMemberThatFailsValidationIsNamedByIndexAndFieldAndNothingIsAccepted() {
        Map<String, Object> good = new HashMap<>(script("true"));
        good.put("id", "group-valid-member");
        Map<String, Object> bad = new HashMap<>(script("true"));
        bad.put("resources", Map.of("memoryBytes", 1));
        bad.put("timeout", "soon");
        JsonPath problem = refused(Map.of("dispatches", List.of(good, bad), "maxDigestBytes", -1), 422);

        assertThat(problem.getString("type")).isEqualTo("urn:problem-type:sluice:validation-failed");
        assertThat(problem.getList("errors.field"))
                .containsExactlyInAnyOrder(
                        "dispatches.1.timeout", "dispatches.1.resources.memoryBytes", "maxDigestBytes");
        assertThat(problem.getList("errors.pointer")).contains("#/dispatches/1/resources/memoryBytes");
        assertNoDispatch("group-valid-member");
    }

    @Test
    void aMemberMayNotHaveItsOwnCallbackNorRepeatAnId() {
        Map<String, Object> withCallback = new HashMap<>(script("true"));
        withCallback.put("callbackUrl", receiver.url("/hooks/member"));
        Map<String, Object> first = new HashMap<>(script("true"));
        first.put("id", "group-twin");
        JsonPath problem = refused(Map.of("dispatches", List.of(withCallback, first, first)), 422);

        assertThat(problem.getList("errors.field")).containsExactly("dispatches.0.callbackUrl", "dispatches.2.id");
        assertNoDispatch("group-twin");
    }

    @Test
    void aMemberIdThatExistsRefusesTheWholeGroup() {
        Map<String, Object> existing = new HashMap<>(script("true"));
        existing.put("id", "group-existing");
        Dispatches.submit(existing);
        Map<String, Object> fresh = new HashMap<>(script("true"));
        fresh.put("id", "group-fresh");

        JsonPath problem = refused(Map.of("dispatches", List.of(fresh, existing)), 409);

        assertThat(problem.getString("type")).isEqualTo("urn:problem-type:sluice:id-conflict");
        assertNoDispatch("group-fresh");
    }

    @Test
    void anUnknownGroupIsNotFound() {
        given().get("/v1/dispatch-groups/g-" + "0".repeat(32))
                .then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("title", org.hamcrest.Matchers.equalTo("Group not found"));
    }
}
