package dev.sluice.store;

/**
 * What the key of a stored dispatch looks like (ADR 0052): its id in the
 * {@code default} tenant, {@code <tenant>.<id>} in another. Files named after
 * a key (result bodies, artifact directories) are checked against it, so that
 * no name a client chose can reach outside their directory.
 */
public final class Keys {

    /** A tenant's name: lower case, digits, {@code -} and {@code _}, at most 32. */
    public static final String TENANT = "[a-z0-9][a-z0-9_-]{0,31}";

    /** A dispatch's id, as its tenant names it. */
    public static final String ID = "[A-Za-z0-9_-]{1,64}";

    /** A key: neither part contains a dot, so the dot parts them unambiguously. */
    public static final String KEY = "(?:" + TENANT + "\\.)?" + ID;

    /** The tenant of a key without a tenant part. */
    public static final String DEFAULT_TENANT = "default";

    private Keys() {}

    /** The tenant a key belongs to: what comes before its dot, or {@value #DEFAULT_TENANT} when it has none. */
    public static String tenantOf(String key) {
        int dot = key.indexOf('.');
        return dot < 0 ? DEFAULT_TENANT : key.substring(0, dot);
    }
}
