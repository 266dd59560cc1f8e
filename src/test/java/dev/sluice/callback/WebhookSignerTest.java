package dev.sluice.callback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

class WebhookSignerTest {

    /** The example published with the Standard Webhooks specification and its libraries. */
    @Test
    void signsTheSpecificationsExample() {
        WebhookSigner signer = new WebhookSigner(List.of("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
        String signature = signer.sign(
                "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8));
        assertThat(signature).isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    @Test
    void everySecretSignsDuringRotationTheFirstFirst() {
        WebhookSigner signer = new WebhookSigner(
                List.of("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", " whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA "));
        String[] signatures = signer.sign(
                        "msg_p5jXN8AQM9LWM0D4loKWxJek",
                        1614265330,
                        "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8))
                .split(" ");
        assertThat(signatures).hasSize(2);
        assertThat(signatures[0]).isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
        assertThat(signatures[1]).startsWith("v1,").isNotEqualTo(signatures[0]);
    }

    @Test
    void malformedSecretsStopTheWorkerWithAClearMessage() {
        assertThatThrownBy(() -> new WebhookSigner(List.of("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")))
                .hasMessage("sluice.callback.signing-secrets: secret 1 must have the form whsec_<base64>");
        assertThatThrownBy(() -> new WebhookSigner(List.of("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_!!!")))
                .hasMessage("sluice.callback.signing-secrets: secret 2 is not valid base64 after whsec_");
        assertThatThrownBy(() -> new WebhookSigner(List.of("whsec_c2hvcnQ=")))
                .hasMessage("sluice.callback.signing-secrets: secret 1 is shorter than 24 bytes");
        assertThat(new WebhookSigner(List.of()).canSign()).isFalse();
    }
}
