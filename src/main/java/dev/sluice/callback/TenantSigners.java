package dev.sluice.callback;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which secrets sign a tenant's callbacks (ADR 0074): its own
 * ({@code sluice.tenants.<name>.signing-secrets}), else the worker's
 * ({@code sluice.callback.signing-secrets}), which are also the tenant
 * {@code default}'s. Chosen at each attempt, so a retry or a redelivery after
 * a rotation signs with the secrets configured now. Read at start: a malformed
 * secret, or one Sluice's documentation published as an example, stops the
 * worker before it signs anything with it.
 */
public final class TenantSigners {

    /**
     * Secrets anyone can sign with, because this project published them: the
     * Standard Webhooks specification's example, which the README, the guide,
     * the operations guide and the API document once showed as a value to set
     * (docs/api.md still signs its worked example with it, so that a reader can
     * check the recipe); the all-zero key of an old test profile; and the
     * placeholder of the Kubernetes example Secret.
     */
    static final List<String> PUBLISHED = List.of(
            "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "whsec_REPLACE_ME_with_base64_of_32_random_bytes");

    private final WebhookSigner worker;
    private final Map<String, WebhookSigner> own;

    private TenantSigners(WebhookSigner worker, Map<String, WebhookSigner> own) {
        this.worker = worker;
        this.own = Map.copyOf(own);
    }

    /**
     * The worker's secrets and each tenant's own, checked.
     *
     * @param tenants each tenant's own secrets, by a name already checked to be a tenant's
     */
    public static TenantSigners of(List<String> workerSecrets, Map<String, List<String>> tenants) {
        Map<String, WebhookSigner> own = new HashMap<>();
        tenants.forEach((tenant, secrets) -> {
            if (!secrets.isEmpty()) {
                own.put(tenant, signer("sluice.tenants." + tenant + ".signing-secrets", secrets));
            }
        });
        return new TenantSigners(signer(CallbackConfig.SIGNING_SECRETS, workerSecrets), own);
    }

    private static WebhookSigner signer(String setting, List<String> secrets) {
        for (int i = 0; i < secrets.size(); i++) {
            refusePublished(setting, secrets.get(i).strip(), i + 1);
        }
        return new WebhookSigner(setting, secrets);
    }

    private static void refusePublished(String setting, String secret, int position) {
        if (PUBLISHED.contains(secret)) {
            throw new IllegalArgumentException(setting + ": secret " + position
                    + " is an example published in Sluice's documentation, which anyone can sign with;"
                    + " make a secret of your own: echo \"whsec_$(openssl rand -base64 32)\"");
        }
    }

    /** The signer of {@code tenant}'s callbacks; one that cannot sign when no secret serves it. */
    public WebhookSigner of(String tenant) {
        return own.getOrDefault(tenant, worker);
    }

    /** Whether some secret signs {@code tenant}'s callbacks: without one, its callback URLs are refused. */
    public boolean serves(String tenant) {
        return of(tenant).canSign();
    }

    /** The tenants with secrets of their own. */
    public Set<String> tenantsWithOwnSecrets() {
        return own.keySet();
    }
}
