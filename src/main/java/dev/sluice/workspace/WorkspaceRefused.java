package dev.sluice.workspace;

/**
 * A workspace the worker does not take: which field (or entry) and why. At
 * intake it is a 422 naming the field; for an archive fetched when the
 * dispatch starts, the reason its result gives.
 */
public final class WorkspaceRefused extends RuntimeException {

    private final String field;
    private final String detail;

    /** @param field the field, or {@code field: entry "name"} for an entry of an archive, which the detail names */
    public WorkspaceRefused(String field, String detail) {
        super(field + ": " + detail, null, false, false);
        int entry = field.indexOf(": ");
        this.field = entry < 0 ? field : field.substring(0, entry);
        this.detail = entry < 0 ? detail : field.substring(entry + 2) + ": " + detail;
    }

    /** The request field, such as {@code workspace.files.3.path} or {@code workspace.archive}. */
    public String field() {
        return field;
    }

    public String detail() {
        return detail;
    }
}
