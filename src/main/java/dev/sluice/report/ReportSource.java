package dev.sluice.report;

import com.fasterxml.jackson.annotation.JsonValue;

/** Where a report was found: the out-directory's file, or the last line of stdout. */
public enum ReportSource {
    FILE,
    STDOUT;

    @JsonValue
    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
