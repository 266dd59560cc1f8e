package dev.sluice.actions.reading;

/**
 * A body refused while it was read, before what it describes was built:
 * the whole document is too large ({@link Kind#TOO_LARGE}), one field holds
 * more than the contract allows ({@link Kind#INVALID}, naming it), or the
 * decoding budget has no room for it now ({@link Kind#BUSY}). Messages are
 * fixed sentences with numbers, never a value from the body.
 */
public final class BodyRefused extends RuntimeException {

    /** What kind of refusal: the HTTP status each door answers it with. */
    public enum Kind {
        /** 413: the document as a whole. */
        TOO_LARGE,
        /** 422: one field, named. */
        INVALID,
        /** 429: the worker's or the tenant's decoding budget. */
        BUSY
    }

    private final Kind kind;
    private final String field;
    private final String detail;

    private BodyRefused(Kind kind, String field, String detail) {
        super(field == null ? detail : field + ": " + detail, null, false, false);
        this.kind = kind;
        this.field = field;
        this.detail = detail;
    }

    static BodyRefused tooLarge(String detail) {
        return new BodyRefused(Kind.TOO_LARGE, null, detail);
    }

    static BodyRefused invalid(String field, String detail) {
        return new BodyRefused(Kind.INVALID, field, detail);
    }

    static BodyRefused busy(String detail) {
        return new BodyRefused(Kind.BUSY, null, detail);
    }

    public Kind kind() {
        return kind;
    }

    /** The field's dotted path, for {@link Kind#INVALID}; {@code null} otherwise. */
    public String field() {
        return field;
    }

    public String detail() {
        return detail;
    }
}
