package dev.sluice.run;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import dev.sluice.record.DispatchKey;

/**
 * What each tenant may run and keep queued, resolved once from
 * {@link TenantsConfig}: a tenant's own entry, then the {@code default}
 * entry, then the worker's totals. A name that cannot be a tenant, or a
 * limit no dispatch could run under, stops the worker at start rather than
 * leave a tenant's dispatches queued for ever.
 */
final class TenantLimits {

    /** One tenant's limits. */
    record Limit(int maxRunning, int maxQueued) {

        /** Places in all: running and queued together. */
        int places() {
            return maxRunning + maxQueued;
        }
    }

    private final Limit fallback;
    private final Map<String, Limit> own;

    private TenantLimits(Limit fallback, Map<String, Limit> own) {
        this.fallback = fallback;
        this.own = Map.copyOf(own);
    }

    /** Every tenant may use the whole worker. */
    static TenantLimits none(int maxRunning, int maxQueued) {
        return new TenantLimits(new Limit(maxRunning, maxQueued), Map.of());
    }

    /** The limits {@code config} sets, within a worker that runs {@code maxRunning} and queues {@code maxQueued}. */
    static TenantLimits of(TenantsConfig config, int maxRunning, int maxQueued) {
        TenantsConfig.Limits defaults = config.tenants().get(DispatchKey.DEFAULT_TENANT);
        Limit fallback = new Limit(maxRunning, maxQueued);
        if (defaults != null) {
            fallback = resolve(DispatchKey.DEFAULT_TENANT, defaults, fallback);
        }
        Map<String, Limit> own = new HashMap<>();
        for (Map.Entry<String, TenantsConfig.Limits> entry : config.tenants().entrySet()) {
            if (!DispatchKey.validTenant(entry.getKey())) {
                throw new IllegalStateException("sluice.tenants." + entry.getKey()
                        + " does not name a tenant: a tenant is lower case letters, digits, - and _, at most 32");
            }
            own.put(entry.getKey(), resolve(entry.getKey(), entry.getValue(), fallback));
        }
        return new TenantLimits(fallback, own);
    }

    /** The limits of a tenant. */
    Limit of(String tenant) {
        return own.getOrDefault(tenant, fallback);
    }

    private static Limit resolve(String tenant, TenantsConfig.Limits limits, Limit otherwise) {
        int maxRunning = orElse(limits.maxRunning(), otherwise.maxRunning());
        int maxQueued = orElse(limits.maxQueued(), otherwise.maxQueued());
        if (maxRunning < 1 || maxQueued < 0) {
            throw new IllegalStateException("sluice.tenants." + tenant
                    + ": max-running must be at least 1 and max-queued at least 0, or no dispatch of it could run");
        }
        return new Limit(maxRunning, maxQueued);
    }

    private static int orElse(Optional<Integer> value, int otherwise) {
        return value.orElse(otherwise);
    }
}
