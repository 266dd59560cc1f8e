package dev.sluice.callback;

import static dev.sluice.testsupport.Dispatches.awaitDelivered;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.Profiles;
import dev.sluice.testsupport.Program;
import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.Signatures;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;

/**
 * The callback budget and gzip as a real receiver sees them (ADR 0033): a
 * worker whose {@code sluice.callback.max-body} is 16 KiB runs containers
 * whose results are far larger as JSON, and every delivery is verified by the
 * standardwebhooks library over the body as sent, before any encoding.
 */
@QuarkusTest
@TestProfile(Profiles.SmallCallbackBudget.class)
class CallbackBudgetIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_BODY = 16 * 1024;

    private final Receiver receiver = Receiver.on("127.0.0.1");

    @AfterEach
    void close() {
        receiver.close();
    }

    @Test
    void anEscapeHeavyResultArrivesReducedInOrderWithinTheBudgetAndVerifies() throws IOException {
        // 30000 control bytes are 180000 bytes of JSON; stderr's 3000 lines alone are just over the budget too.
        Receiver.Request delivery = deliver("head -c 30000 /dev/zero | tr '\\000' '\\001'; seq 1 3000 >&2", Map.of());

        assertThat(delivery.header("content-encoding")).isNull();
        assertThat(delivery.body().length).isLessThanOrEqualTo(MAX_BODY);
        assertVerifies(delivery, delivery.body());
        JsonNode result = JSON.readTree(delivery.body());
        assertThat(result.get("reductions").findValuesAsText("part")).containsExactly("head", "tail", "head");
        assertThat(result.get("reductions").findValuesAsText("stream")).containsExactly("stdout", "stdout", "stderr");
        // The capture's counts stay true: nothing was dropped by the caps, and the digests are the whole streams'.
        JsonNode stdoutOverflow = result.get("stdoutOverflow");
        assertThat(stdoutOverflow.get("originalBytes").asLong()).isEqualTo(30000);
        assertThat(stdoutOverflow.get("droppedBytes").asLong()).isZero();
        assertThat(stdoutOverflow.get("keptBytes").asLong())
                .isEqualTo(result.get("stdout").asText().getBytes(StandardCharsets.UTF_8).length);
        assertThat(result.at("/stdoutDigest/bytes").asLong()).isEqualTo(30000);
        String nonce = stdoutOverflow.get("nonce").asText();
        assertThat(result.get("stdout").asText()).contains("[... sluice " + nonce + ": 0 of 30000 bytes of stdout");
        long removedFromStdout = result.get("reductions").get(0).get("bytes").asLong()
                + result.get("reductions").get(1).get("bytes").asLong();
        assertThat(result.get("stdout").asText()).contains(" and " + removedFromStdout + " more bytes of this text");
        // stderr's tail, where a failing program says why, is kept to its last line.
        assertThat(result.get("stderr").asText()).endsWith("\n2999\n3000\n");
        assertThat(result.get("stderrOverflow").get("nonce").asText()).isEqualTo(nonce);
        // The stored result is the body: the same bytes, so the same JSON.
        String id = delivery.header("webhook-id").substring("msg_".length());
        String record = RestAssured.get("/v1/dispatches/" + id).asString();
        assertThat(JSON.readTree(record).get("result")).isEqualTo(result);
    }

    @Test
    void aGzipDeliveryIsCompressedAndSignedOverTheUncompressedBody() throws IOException {
        Receiver.Request delivery = deliver("seq 1 2000", Map.of("callbackEncoding", "gzip"));

        assertThat(delivery.header("content-encoding")).isEqualTo("gzip");
        byte[] body = delivery.decodedBody();
        assertThat(delivery.body().length).isLessThan(body.length);
        assertVerifies(delivery, body);
        Program.Result overCompressed =
                Signatures.verifyWithLibrary(Signatures.TEST_SECRETS.get(0), delivery.headers(), delivery.body());
        assertThat(overCompressed.exitCode()).as(overCompressed.output()).isEqualTo(1);
        JsonNode result = JSON.readTree(body);
        assertThat(result.get("stdout").asText()).startsWith("1\n2\n").endsWith("\n2000\n");
        assertThat(result.has("reductions")).isFalse();
    }

    private void assertVerifies(Receiver.Request delivery, byte[] body) {
        for (String secret : Signatures.TEST_SECRETS) {
            Program.Result result = Signatures.verifyWithLibrary(secret, delivery.headers(), body);
            assertThat(result.exitCode()).as("%s: %s", secret, result.output()).isZero();
        }
    }

    private Receiver.Request deliver(String shell, Map<String, Object> more) {
        Map<String, Object> body = new HashMap<>(script(shell));
        body.putAll(more);
        body.put("callbackUrl", receiver.url("/hooks/sluice"));
        String id = submit(body);
        awaitDelivered(id);
        List<Receiver.Request> requests = receiver.requests();
        assertThat(requests).hasSize(1);
        return requests.get(0);
    }
}
