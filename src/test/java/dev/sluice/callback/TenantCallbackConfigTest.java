package dev.sluice.callback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.sluice.run.TenantsConfig;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * Two concerns map keys of one tenant's entry (ADR 0074): the run limits
 * ({@link TenantsConfig}) and the callbacks ({@link TenantCallbackConfig}),
 * each under {@code sluice.tenants}. SmallRye, as the worker reads its
 * configuration, takes both and rejects neither's keys, while a key that
 * neither maps still stops the start; and the environment's form of a
 * tenant's key reaches the right tenant.
 */
class TenantCallbackConfigTest {

    private static SmallRyeConfig config(Map<String, String> properties, Map<String, String> environment) {
        return new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(properties, "application.properties", 250))
                .withSources(new EnvConfigSource(environment, 300))
                .withMapping(TenantsConfig.class)
                .withMapping(TenantCallbackConfig.class)
                .build();
    }

    @Test
    void theLimitsAndTheCallbacksOfATenantShareItsEntry() {
        SmallRyeConfig config = config(
                Map.of(
                        "sluice.tenants.alpha.signing-secrets", "whsec_one,whsec_two",
                        "sluice.tenants.beta.max-running", "3",
                        "sluice.tenants.beta.callback-allowed-hosts", "hooks.beta.example"),
                Map.of("SLUICE_TENANTS_GAMMA_SIGNING_SECRETS", "whsec_three", "SLUICE_TENANTS_GAMMA_MAX_QUEUED", "7"));

        Map<String, TenantsConfig.Limits> limits =
                config.getConfigMapping(TenantsConfig.class).tenants();
        assertThat(limits).containsOnlyKeys("beta", "gamma");
        assertThat(limits.get("beta").maxRunning()).contains(3);
        assertThat(limits.get("gamma").maxQueued()).contains(7);

        Map<String, TenantCallbackConfig.Callbacks> callbacks =
                config.getConfigMapping(TenantCallbackConfig.class).tenants();
        assertThat(callbacks.get("alpha").signingSecrets()).contains(List.of("whsec_one", "whsec_two"));
        assertThat(callbacks.get("alpha").callbackAllowedHosts()).isEmpty();
        assertThat(callbacks.get("beta").callbackAllowedHosts()).contains(List.of("hooks.beta.example"));
        assertThat(callbacks.get("gamma").signingSecrets()).contains(List.of("whsec_three"));
    }

    @Test
    void aKeyNeitherMapsStillStopsTheStart() {
        assertThatThrownBy(() -> config(Map.of("sluice.tenants.alpha.signing-secret", "whsec_one"), Map.of()))
                .hasMessageContaining("sluice.tenants.alpha.signing-secret")
                .hasMessageContaining("does not map to any root");
    }

    private record Callbacks(Optional<List<String>> signingSecrets, Optional<List<String>> callbackAllowedHosts)
            implements TenantCallbackConfig.Callbacks {}

    private static TenantCallbackConfig tenants(Map<String, TenantCallbackConfig.Callbacks> entries) {
        return () -> entries;
    }

    @Test
    void eachTenantsValueIsTakenWhereItSetOne() {
        TenantCallbackConfig config = tenants(Map.of(
                "alpha", new Callbacks(Optional.of(List.of("whsec_a")), Optional.empty()),
                "beta", new Callbacks(Optional.empty(), Optional.of(List.of("hooks.beta.example")))));
        assertThat(TenantEntries.of(config, TenantCallbackConfig.Callbacks::signingSecrets))
                .isEqualTo(Map.of("alpha", List.of("whsec_a")));
        assertThat(TenantEntries.of(config, TenantCallbackConfig.Callbacks::callbackAllowedHosts))
                .isEqualTo(Map.of("beta", List.of("hooks.beta.example")));
    }

    @Test
    void anEntryThatNamesNoTenantOrTheDefaultTenantStopsTheStart() {
        assertThatThrownBy(() -> TenantEntries.of(
                        tenants(Map.of("Alpha", new Callbacks(Optional.of(List.of("whsec_a")), Optional.empty()))),
                        TenantCallbackConfig.Callbacks::signingSecrets))
                .hasMessage("sluice.tenants.Alpha does not name a tenant: a tenant is lower case letters, digits,"
                        + " - and _, at most 32");
        assertThatThrownBy(() -> TenantEntries.of(
                        tenants(Map.of("default", new Callbacks(Optional.empty(), Optional.of(List.of("a.example"))))),
                        TenantCallbackConfig.Callbacks::callbackAllowedHosts))
                .hasMessage("sluice.tenants.default: the callbacks of the tenant default are set by"
                        + " sluice.callback.signing-secrets and sluice.callback.allowed-hosts");
    }
}
