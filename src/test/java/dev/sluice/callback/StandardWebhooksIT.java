package dev.sluice.callback;

import static dev.sluice.testsupport.Dispatches.awaitDelivered;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.Program;
import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.Signatures;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Callbacks as a receiver checks them: each delivery the worker really sent
 * is verified by the standardwebhooks library (Node), not by code of ours. The
 * test profile signs with two secrets, as during a rotation.
 */
@QuarkusTest
class StandardWebhooksIT {

    private final Receiver receiver = Receiver.on("127.0.0.1");

    @AfterEach
    void close() {
        receiver.close();
    }

    @Test
    void aDeliveryVerifiesWithTheFirstSecretOverItsExactBytes() {
        // Output beyond ASCII: the bytes verified must be the bytes sent.
        Receiver.Request delivery = deliver("printf 'r\\303\\251sultat \\342\\234\\223\\n'");
        assertThat(delivery.bodyText()).contains("résultat ✓");

        Program.Result result =
                Signatures.verifyWithLibrary(Signatures.TEST_SECRETS.get(0), delivery.headers(), delivery.body());

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.stdout()).contains("verified " + delivery.header("webhook-id"));
    }

    @Test
    void duringARotationEachSecretAloneVerifiesAndNoOtherDoes() {
        Receiver.Request delivery = deliver("echo rotating");
        assertThat(delivery.header("webhook-signature").split(" ")).hasSize(2);

        for (String secret : Signatures.TEST_SECRETS) {
            Program.Result result = Signatures.verifyWithLibrary(secret, delivery.headers(), delivery.body());
            assertThat(result.exitCode()).as("%s: %s", secret, result.output()).isZero();
        }
        Program.Result stranger =
                Signatures.verifyWithLibrary(unconfiguredSecret(), delivery.headers(), delivery.body());
        assertThat(stranger.exitCode()).as(stranger.output()).isEqualTo(1);
        assertThat(stranger.stdout()).contains("rejected: No matching signature found");
    }

    @Test
    void aTamperedBodyIsRejected() {
        Receiver.Request delivery = deliver("echo pay 10");
        String tampered = delivery.bodyText().replace("pay 10", "pay 99");
        assertThat(tampered).isNotEqualTo(delivery.bodyText());

        for (String secret : Signatures.TEST_SECRETS) {
            Program.Result result =
                    Signatures.verifyWithLibrary(secret, delivery.headers(), tampered.getBytes(StandardCharsets.UTF_8));
            assertThat(result.exitCode()).as(result.output()).isEqualTo(1);
            assertThat(result.stdout()).contains("rejected: No matching signature found");
        }
    }

    @Test
    void aTamperedTimestampIsRejected() {
        Receiver.Request delivery = deliver("echo on time");
        Map<String, String> headers = new HashMap<>(delivery.headers());
        long sent = Long.parseLong(delivery.header("webhook-timestamp"));
        // One second later is well within the replay window: only the signature can catch it.
        headers.put("webhook-timestamp", Long.toString(sent + 1));

        for (String secret : Signatures.TEST_SECRETS) {
            Program.Result result = Signatures.verifyWithLibrary(secret, headers, delivery.body());
            assertThat(result.exitCode()).as(result.output()).isEqualTo(1);
            assertThat(result.stdout()).contains("rejected: No matching signature found");
        }
    }

    /** Runs a dispatch whose result is called back to the receiver, and returns the one delivery. */
    private Receiver.Request deliver(String shell) {
        Map<String, Object> body = new HashMap<>(script(shell));
        body.put("callbackUrl", receiver.url("/hooks/sluice"));
        String id = submit(body);
        awaitDelivered(id);
        List<Receiver.Request> requests = receiver.requests();
        assertThat(requests).hasSize(1);
        assertThat(requests.get(0).header("webhook-id")).isEqualTo("msg_" + id);
        return requests.get(0);
    }

    private static String unconfiguredSecret() {
        String secret = Signatures.freshSecret();
        assertThat(Signatures.TEST_SECRETS).doesNotContain(secret);
        return secret;
    }
}
