package dev.sluice.record;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * When a dispatch's image is pulled from its registry (ADR 0059): never (it
 * must be on the engine already), if it is not present, or always (the
 * registry is asked at each dispatch, and a moved tag is followed). In that
 * order each allows more than the one before: a dispatch may ask for the
 * operator's policy or one before it, never one after.
 */
public enum PullPolicy {
    NEVER,
    IF_NOT_PRESENT,
    ALWAYS;

    @JsonValue
    public String wire() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The policy a request names; empty for a name that is not one. */
    public static Optional<PullPolicy> fromWire(String wire) {
        return Arrays.stream(values()).filter(p -> p.wire().equals(wire)).findFirst();
    }

    /** Whether a dispatch may ask for this policy where the operator allows {@code operator}. */
    public boolean within(PullPolicy operator) {
        return compareTo(operator) <= 0;
    }
}
