package dev.sluice.output;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How a stream's output is read when it must be cut (ADR 0031): as text (head,
 * marker line, tail), as JSON Lines (whole records only), or as one JSON
 * document (reduced, least destructive step first).
 */
public enum OutputFormat {
    TEXT,
    JSONL,
    JSON;

    @JsonValue
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The format a request names; empty for a name that is not a format. */
    public static Optional<OutputFormat> fromWire(String wire) {
        return Arrays.stream(values()).filter(f -> f.wire().equals(wire)).findFirst();
    }

    /** Specs stored before formats existed have none: their output is text. */
    public static OutputFormat orText(OutputFormat format) {
        return format == null ? TEXT : format;
    }
}
