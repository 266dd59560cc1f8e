package dev.sluice.actions.reading;

/**
 * What a request body may hold, checked while it is read (docs/api.md,
 * section 3.7; ADR 0076). The fixed numbers are far above what a request of
 * the contract needs and far below what takes the heap; the others follow
 * the worker's settings.
 *
 * @param maxBytes {@code sluice.api.max-request-size}: no body is longer
 * @param maxMembers {@code sluice.groups.max-members}: a group's {@code dispatches}
 * @param maxFiles {@code sluice.workspace.max-entries}: a workspace's {@code files}
 */
public record BodyLimits(long maxBytes, int maxMembers, int maxFiles) {

    /** Tokens (each key, value, and each bracket) in one body: 10,000 workspace files of ten take half. */
    public static final int MAX_TOKENS = 200_000;

    /** Levels of nesting in one body: a group member's workspace file is six deep, its metadata at most 20. */
    public static final int MAX_DEPTH = 32;

    /** Entries of {@code command}, {@code env} and {@code secrets}, each. */
    public static final int MAX_ITEMS = 4096;

    /** Values inside one {@code metadata} object, at any depth. */
    public static final int METADATA_VALUES = 1000;

    /** Levels of nesting inside one {@code metadata} object. */
    public static final int METADATA_DEPTH = 16;

    /** Pointers of {@code output.project}. */
    public static final int MAX_POINTERS = 64;

    /** Characters of one number: a longer one is no count, size or limit of the contract. */
    public static final int MAX_NUMBER_LENGTH = 1000;

    /** Characters of one key. */
    public static final int MAX_NAME_LENGTH = 50_000;

    /**
     * What one token is charged in the decoding budget: about what the object
     * it becomes takes on the heap (a record, a map entry and its two strings,
     * an empty list), so that a body of many small values is charged for what
     * it builds rather than for its few bytes.
     */
    public static final long TOKEN_BYTES = 64;

    /** The most a body's tokens are ever charged. */
    public static long mostTokenCharge() {
        return MAX_TOKENS * TOKEN_BYTES;
    }
}
