package dev.sluice.callback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.Signatures;

/** Whose secrets sign a tenant's callbacks, and the secrets no worker may sign with (ADR 0074). */
class TenantSignersTest {

    private static final String WORKER = Signatures.freshSecret();
    private static final String BETA = Signatures.freshSecret();
    private static final String BETA_NEXT = Signatures.freshSecret();
    private static final byte[] BODY = "{}".getBytes(StandardCharsets.UTF_8);

    private static String signature(WebhookSigner signer) {
        return signer.sign("msg_x", 1, BODY);
    }

    @Test
    void aTenantWithSecretsOfItsOwnIsSignedWithThemAndEveryOtherWithTheWorkers() {
        TenantSigners signers = TenantSigners.of(List.of(WORKER), Map.of("beta", List.of(BETA, BETA_NEXT)));

        String beta = signature(signers.of("beta"));
        assertThat(beta).isEqualTo(signature(new WebhookSigner(List.of(BETA, BETA_NEXT))));
        assertThat(beta).doesNotContain(signature(new WebhookSigner(List.of(WORKER))));
        for (String tenant : List.of("default", "alpha")) {
            assertThat(signature(signers.of(tenant))).isEqualTo(signature(new WebhookSigner(List.of(WORKER))));
        }
        assertThat(signers.tenantsWithOwnSecrets()).containsExactly("beta");
    }

    @Test
    void aTenantServedByNoSecretCannotHaveCallbacks() {
        TenantSigners signers = TenantSigners.of(List.of(), Map.of("beta", List.of(BETA)));
        assertThat(signers.serves("beta")).isTrue();
        assertThat(signers.serves("alpha")).isFalse();
        assertThat(signers.serves("default")).isFalse();
        assertThat(TenantSigners.of(List.of(WORKER), Map.of()).serves("alpha")).isTrue();
    }

    @Test
    void everySecretSluicePublishedAsAnExampleStopsTheStartWhereverItIsSet() {
        for (String published : TenantSigners.PUBLISHED) {
            assertThatThrownBy(() -> TenantSigners.of(List.of(WORKER, " " + published + " "), Map.of()))
                    .as(published)
                    .hasMessage("sluice.callback.signing-secrets: secret 2 is an example published in Sluice's"
                            + " documentation, which anyone can sign with; make a secret of your own:"
                            + " echo \"whsec_$(openssl rand -base64 32)\"");
            assertThatThrownBy(() -> TenantSigners.of(List.of(WORKER), Map.of("beta", List.of(published))))
                    .as(published)
                    .hasMessageStartingWith("sluice.tenants.beta.signing-secrets: secret 1 is an example published");
        }
    }

    @Test
    void aMalformedSecretOfATenantIsNamedByItsSetting() {
        assertThatThrownBy(() -> TenantSigners.of(List.of(WORKER), Map.of("beta", List.of(BETA, "whsec_!!!"))))
                .hasMessage("sluice.tenants.beta.signing-secrets: secret 2 is not valid base64 after whsec_");
        assertThatThrownBy(() -> TenantSigners.of(List.of(WORKER), Map.of("beta", List.of("whsec_c2hvcnQ="))))
                .hasMessage("sluice.tenants.beta.signing-secrets: secret 1 is shorter than 24 bytes");
        assertThatThrownBy(() -> TenantSigners.of(List.of(WORKER), Map.of("beta", List.of(BETA.substring(6)))))
                .hasMessage("sluice.tenants.beta.signing-secrets: secret 1 must have the form whsec_<base64>")
                .hasMessageNotContaining(BETA.substring(6));
    }
}
