package dev.sluice.report;

import com.fasterxml.jackson.annotation.JsonValue;

/** What the worker found of an agent's report (docs/api.md, section 7.5). */
public enum ReportStatus {
    /** A valid report, nothing cut. */
    PRESENT,
    /** A valid report, bounded: something was cut or dropped. */
    TRUNCATED,
    /** A report was found but cannot be used. */
    MALFORMED,
    /** No report, or none could be looked for. */
    MISSING;

    @JsonValue
    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
