package dev.sluice.actions;

import java.util.Optional;
import java.util.regex.Pattern;

import dev.sluice.record.DispatchKey;
import dev.sluice.record.RequestRefused;
import dev.sluice.store.Keys;

/**
 * Who a request comes from (ADR 0052): a tenant, which sees and acts on its own
 * dispatches and groups only, or an operator, which sees every tenant's. A
 * tenant names its dispatches by id; an operator names another tenant's by
 * key ({@code <tenant>.<id>}), and creates dispatches in its own tenant like
 * anyone else.
 *
 * @param tenant   the tenant whose dispatches this caller creates
 * @param operator whether it sees every tenant
 */
public record Caller(String tenant, boolean operator) {

    /** Where a door keeps the caller of the request it serves (in the HTTP layer's request context). */
    public static final String CONTEXT_KEY = "sluice.caller";

    /** Every request when no token is set: the {@code default} tenant, seeing that tenant alone. */
    public static final Caller ANONYMOUS = new Caller(DispatchKey.DEFAULT_TENANT, false);

    private static final Pattern ID = Pattern.compile(DispatchRequestValidator.ID_PATTERN);
    private static final Pattern KEY = Pattern.compile(Keys.KEY);

    public Caller {
        if (!DispatchKey.validTenant(tenant)) {
            throw new IllegalArgumentException("not a tenant name: " + tenant);
        }
    }

    /**
     * The key of the dispatch (or group) this caller names {@code id} (a key, for an
     * operator); empty for a name that cannot be one of this caller's, which is then
     * answered as an unknown id.
     */
    public Optional<String> key(String id) {
        if (id == null || !(operator ? KEY : ID).matcher(id).matches()) {
            return Optional.empty();
        }
        return Optional.of(operator ? id : DispatchKey.of(tenant, id));
    }

    /** The key of the dispatch this caller names {@code id}; not found, as an unknown id, when it cannot be one. */
    public String dispatchKey(String id) {
        return key(id).orElseThrow(() -> RequestRefused.notFoundByName(id));
    }

    /** Whether the record with this key is one this caller may see. */
    public boolean sees(String key) {
        return operator || tenant.equals(DispatchKey.tenantOf(key));
    }

    /** How this caller names the dispatch with this key: its id, or for an operator the key itself. */
    public String name(String key) {
        return operator ? key : DispatchKey.idOf(key);
    }

    /** How this caller names the dispatch {@code tenant} knows as {@code id}. */
    public String name(String tenant, String id) {
        return name(DispatchKey.of(tenant, id));
    }

    /** The tenant a listing is confined to; {@code null} for an operator, who sees all. */
    public String listedTenant() {
        return operator ? null : tenant;
    }
}
