package dev.sluice.callback;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import dev.sluice.record.DispatchKey;

/**
 * The tenants' values of one callback setting ({@link TenantCallbackConfig}),
 * where they set one, by tenant. A name that cannot be a tenant's stops the
 * worker at start, and so does the tenant {@code default}'s entry: the worker's
 * own {@code sluice.callback.*} settings are that tenant's, and a second place
 * for them would leave an operator guessing which one holds (ADR 0074).
 */
final class TenantEntries {

    private TenantEntries() {}

    static Map<String, List<String>> of(
            TenantCallbackConfig config, Function<TenantCallbackConfig.Callbacks, Optional<List<String>>> setting) {
        Map<String, List<String>> values = new HashMap<>();
        config.tenants().forEach((tenant, callbacks) -> {
            Optional<List<String>> value = setting.apply(callbacks);
            if (value.isEmpty()) {
                return;
            }
            if (!DispatchKey.validTenant(tenant)) {
                throw new IllegalStateException("sluice.tenants." + tenant
                        + " does not name a tenant: a tenant is lower case letters, digits, - and _, at most 32");
            }
            if (tenant.equals(DispatchKey.DEFAULT_TENANT)) {
                throw new IllegalStateException("sluice.tenants.default: the callbacks of the tenant default are"
                        + " set by sluice.callback.signing-secrets and sluice.callback.allowed-hosts");
            }
            values.put(tenant, value.get());
        });
        return values;
    }
}
