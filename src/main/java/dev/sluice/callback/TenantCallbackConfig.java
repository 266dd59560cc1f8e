package dev.sluice.callback;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithParentName;

/**
 * Each tenant's callbacks (ADR 0074): the secrets that sign them, so that a
 * receiver holding one tenant's key believes no other tenant's result, and the
 * hosts they may go to. It shares the prefix with the run limits
 * ({@code sluice.tenants.<name>.max-running}): each concern maps its own keys
 * of a tenant's entry. The worker's {@code sluice.callback.*} settings are the
 * tenant {@code default}'s, so an entry {@code default} here stops the worker at
 * start, as does a name that cannot be a tenant.
 */
@ConfigMapping(prefix = "sluice.tenants")
public interface TenantCallbackConfig {

    /** Callback settings by tenant name. */
    @WithParentName
    Map<String, Callbacks> tenants();

    /** One tenant's callback settings. */
    interface Callbacks {

        /**
         * Standard Webhooks secrets ({@code whsec_<base64>} of at least 24 random
         * bytes) that sign this tenant's callbacks, comma-separated, in place of
         * {@code sluice.callback.signing-secrets}: the first signs, every one gives
         * a signature (rotation). Unset: the worker's. A malformed secret, or one
         * published as an example in Sluice's documentation, stops the worker at start.
         */
        Optional<List<String>> signingSecrets();

        /**
         * The only hosts (names or IP addresses, comma-separated) this tenant's
         * callback URLs may name; unset: any the worker's rules take. Within the
         * worker's: each entry must be a host the SSRF rules and
         * {@code sluice.callback.allowed-hosts} already let through (a private or
         * loopback address the worker does not allow stops the worker at start),
         * and an entry exempts nothing from them.
         */
        Optional<List<String>> callbackAllowedHosts();
    }
}
