package dev.sluice.callback;

import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.get;
import static dev.sluice.testsupport.Dispatches.post;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.Scrape;
import dev.sluice.testsupport.Signatures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * Results delivered to real receivers over HTTP: signed, retried on the
 * schedule (five quick attempts in the test profile), never redirected, and
 * dead-lettered then redelivered.
 */
@QuarkusTest
class CallbackDeliveryIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Receiver receiver = Receiver.on("127.0.0.1");
    private final Receiver canary = Receiver.on("127.0.0.2");

    @AfterEach
    void close() {
        receiver.close();
        canary.close();
    }

    private static String dispatchTo(String url, String script) {
        Map<String, Object> body = new HashMap<>(script(script));
        body.put("callbackUrl", url);
        body.put("metadata", Map.of("task", "callback-test"));
        return submit(body);
    }

    private static JsonPath awaitDelivery(String id, String state) {
        return await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> get(id), r -> state.equals(r.getString("callback.state")));
    }

    @Test
    void fiveAttemptsCarryTheSameIdAndBodyEachSignedByEverySecret() throws Exception {
        receiver.then(Receiver.status(500), Receiver.status(500), Receiver.status(500), Receiver.status(500));
        String id = dispatchTo(receiver.url("/hooks/dispatch"), "echo result for the parent");
        JsonPath record = awaitDelivery(id, "delivered");

        List<Receiver.Request> requests = receiver.requests();
        assertThat(requests).hasSize(5);
        for (Receiver.Request r : requests) {
            assertThat(r.header("webhook-id")).isEqualTo("msg_" + id);
            assertThat(r.bodyText()).isEqualTo(requests.get(0).bodyText());
            assertThat(r.header("webhook-timestamp")).matches("\\d{10}");
            for (String secret : Signatures.TEST_SECRETS) {
                assertThat(Signatures.verifies(r, secret))
                        .as("signed with %s", secret)
                        .isTrue();
            }
        }
        JsonNode delivered = JSON.readTree(requests.get(0).body());
        assertThat(delivered.get("dispatchId").asText()).isEqualTo(id);
        assertThat(delivered.get("stdout").asText()).isEqualTo("result for the parent\n");
        assertThat(delivered).isEqualTo(JSON.valueToTree(record.getMap("result")));

        assertThat(record.getInt("callback.attempts")).isEqualTo(5);
        assertThat(record.getInt("callback.lastStatus")).isEqualTo(200);
        assertThat(record.getString("callback.deliveredAt")).isNotNull();
        assertThat(record.getString("callback.nextAttemptAt")).isNull();
        assertThat(record.getList("callback.history.status", Integer.class)).containsExactly(500, 500, 500, 500, 200);
        Scrape metrics = Scrape.take();
        assertThat(metrics.value("sluice_callback_attempt_duration_seconds_count{outcome=\"retry\"}"))
                .isGreaterThanOrEqualTo(4);
        assertThat(metrics.value("sluice_callback_attempt_duration_seconds_count{outcome=\"delivered\"}"))
                .isGreaterThanOrEqualTo(1);
        assertThat(metrics.value("sluice_callback_attempt_failures_total{reason=\"http_5xx\"}"))
                .isGreaterThanOrEqualTo(4);
    }

    @Test
    void aHangingReceiverIsCutAtTheTimeoutAndDoesNotHoldUpOthers() {
        receiver.then(new Receiver.Hang());
        try (Receiver other = Receiver.on("127.0.0.1")) {
            String slow = dispatchTo(receiver.url("/slow"), "echo slow");
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> receiver.requests().size() == 1);
            // One that ends without a container (its image is not there, and may not be pulled): its result
            // is stored at once, so its delivery is not held up by a container's start on a busy machine.
            Map<String, Object> body = new HashMap<>(script("true"));
            body.put("image", "sluice-test/no-such-image:1");
            body.put("imagePullPolicy", "never");
            body.put("callbackUrl", other.url("/fast"));
            String fast = submit(body);
            awaitDelivery(fast, "delivered");
            // Delivered while the first attempt to the hanging receiver was still open.
            assertThat(other.requests().get(0).at())
                    .isBefore(receiver.requests().get(0).at().plusSeconds(2));

            JsonPath record = awaitDelivery(slow, "delivered");
            assertThat(record.getList("callback.history.error", String.class).get(0))
                    .contains("timeout");
            assertThat(record.getInt("callback.attempts")).isEqualTo(2);
        }
    }

    @Test
    void resetsAndEmptyAnswersAreRetried() {
        receiver.then(new Receiver.Reset(), new Receiver.Empty());
        String id = dispatchTo(receiver.url("/hook"), "echo x");
        JsonPath record = awaitDelivery(id, "delivered");
        assertThat(record.getInt("callback.attempts")).isEqualTo(3);
        assertThat(record.getList("callback.history.error", String.class).subList(0, 2))
                .allMatch(e -> e.contains("without an answer"));
    }

    @Test
    void redirectsAreNeverFollowedAndCountAsFailures() {
        receiver.otherwise(Receiver.status(302, "Location", canary.url("/stolen")));
        String id = dispatchTo(receiver.url("/hook"), "echo secret-ish output");
        JsonPath record = awaitDelivery(id, "dead");
        assertThat(record.getInt("callback.attempts")).isEqualTo(5);
        assertThat(record.getInt("callback.lastStatus")).isEqualTo(302);
        assertThat(canary.connections()).isZero();
    }

    @Test
    void goneStopsDeliveryAtOnce() {
        receiver.otherwise(Receiver.status(410));
        String id = dispatchTo(receiver.url("/hook"), "echo x");
        JsonPath record = awaitDelivery(id, "dead");
        assertThat(record.getInt("callback.attempts")).isEqualTo(1);
        assertThat(record.getString("callback.lastError")).contains("410");
        assertThat(receiver.requests()).hasSize(1);
    }

    @Test
    void retryAfterPushesTheNextAttemptBack() {
        receiver.then(Receiver.status(429, "Retry-After", "2"));
        String id = dispatchTo(receiver.url("/hook"), "echo x");
        awaitDelivery(id, "delivered");
        List<Receiver.Request> requests = receiver.requests();
        assertThat(requests).hasSize(2);
        // The schedule alone would retry after 300 ms; the receiver asked for 2 s.
        assertThat(Duration.between(requests.get(0).at(), requests.get(1).at()))
                .isGreaterThanOrEqualTo(Duration.ofMillis(1900));
    }

    @Test
    void aReceiverDownPastTheScheduleIsDeadLetteredThenRedelivered() {
        // Nothing listens on this port through the whole schedule.
        int port;
        try (Receiver gone = Receiver.on("127.0.0.1")) {
            port = gone.port();
        }
        String id = dispatchTo("http://127.0.0.1:" + port + "/hook", "echo keep me");
        JsonPath dead = awaitDelivery(id, "dead");
        assertThat(dead.getInt("callback.attempts")).isEqualTo(5);
        assertThat(dead.getList("callback.history.error", String.class))
                .hasSize(5)
                .allMatch(e -> e.contains("connection refused"));
        String stored = new ObjectMapper().valueToTree(dead.getMap("result")).toString();

        try (Receiver back = Receiver.on("127.0.0.1", port)) {
            given().post("/v1/dispatches/" + id + "/redeliver")
                    .then()
                    .statusCode(202)
                    // Sent at once: a quick receiver may have it before the answer is written.
                    .body("callback.state", org.hamcrest.Matchers.oneOf("pending", "delivered"));
            JsonPath delivered = awaitDelivery(id, "delivered");
            assertThat(delivered.getInt("callback.attempts")).isEqualTo(6);
            Receiver.Request r = back.requests().get(0);
            assertThat(r.header("webhook-id")).isEqualTo("msg_" + id);
            assertThat(JSON.readTree(r.body()).toString()).isEqualTo(stored);
            assertThat(Signatures.verifies(r, Signatures.TEST_SECRETS.get(0))).isTrue();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void redeliverIsRefusedWhereThereIsNothingToDeliver() {
        String plain = submit(script("echo no callback"));
        awaitTerminal(plain);
        given().post("/v1/dispatches/" + plain + "/redeliver")
                .then()
                .statusCode(409)
                .contentType("application/problem+json");
        given().post("/v1/dispatches/d-none/redeliver").then().statusCode(404);
    }

    @Test
    void internalCallbackUrlsAreRefusedAtIntakeAndCreateNothing() {
        for (String url : List.of(
                canary.url("/hook"),
                "http://127.1:" + receiver.port() + "/",
                "http://localhost/",
                "http://[::ffff:127.0.0.1]/",
                "http://169.254.169.254/",
                "http://user@" + "127.0.0.1:1/")) {
            Map<String, Object> body = new HashMap<>(script("echo x"));
            body.put("callbackUrl", url);
            body.put("id", "ssrf-" + Math.abs(url.hashCode()));
            post(body).then().statusCode(422).body("errors[0].field", org.hamcrest.Matchers.equalTo("callbackUrl"));
            given().get("/v1/dispatches/ssrf-" + Math.abs(url.hashCode()))
                    .then()
                    .statusCode(404);
        }
        assertThat(canary.connections()).isZero();
    }
}
