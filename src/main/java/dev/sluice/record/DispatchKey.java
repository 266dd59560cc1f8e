package dev.sluice.record;

import java.io.IOException;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import dev.sluice.store.Keys;

/**
 * The worker's own name for a dispatch or a group, unique across tenants
 * (ADR 0052). Clients name dispatches per tenant, so two tenants may both
 * send {@code review-42}; the store, the containers' labels, the event
 * channels, the result files and the webhook-id use the key instead. The key
 * of the {@value #DEFAULT_TENANT} tenant's dispatch is its id, so that records,
 * containers and files from before tenants keep their names; another tenant's
 * is {@code <tenant>.<id>}, unambiguous because neither a tenant nor an id may
 * contain a dot.
 */
public final class DispatchKey {

    /** The tenant of a bare token, and of every dispatch recorded before tenants existed. */
    public static final String DEFAULT_TENANT = Keys.DEFAULT_TENANT;

    /** What a tenant may be called: lower case, digits, {@code -} and {@code _}, at most 32. */
    public static final String TENANT_PATTERN = "^" + Keys.TENANT + "$";

    private static final Pattern TENANT = Pattern.compile(TENANT_PATTERN);
    private static final char SEPARATOR = '.';

    private DispatchKey() {}

    /** Whether {@code name} may name a tenant. */
    public static boolean validTenant(String name) {
        return name != null && TENANT.matcher(name).matches();
    }

    /** The key of the dispatch (or group) a tenant calls {@code id}. */
    public static String of(String tenant, String id) {
        return DEFAULT_TENANT.equals(tenant) ? id : tenant + SEPARATOR + id;
    }

    /** The tenant a key belongs to. */
    public static String tenantOf(String key) {
        return Keys.tenantOf(key);
    }

    /** The id the key's tenant knows it by. */
    public static String idOf(String key) {
        return key.substring(key.indexOf(SEPARATOR) + 1);
    }

    /**
     * Writes a key as the id its tenant knows, where a client reads it (a result's
     * {@code dispatchId}): the value inside stays the key, which the store and the
     * outbox go by.
     */
    static final class AsId extends StdSerializer<String> {

        AsId() {
            super(String.class);
        }

        @Override
        public void serialize(String key, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(idOf(key));
        }
    }
}
