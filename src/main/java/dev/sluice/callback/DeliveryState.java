package dev.sluice.callback;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonValue;

/** Where the delivery of a result stands. */
@Schema(
        name = "DeliveryState",
        description = "pending (also before the dispatch finishes), delivered (a 2xx arrived) or dead "
                + "(dead-lettered: 410, or the retry schedule ran out)")
public enum DeliveryState {
    /** Not delivered yet: waiting for its next attempt (or for the dispatch to finish). */
    PENDING("pending"),
    /** A receiver answered 2xx. */
    DELIVERED("delivered"),
    /** Given up: the receiver answered 410, or the retry schedule ran out. Redeliverable. */
    DEAD("dead");

    private final String wire;

    DeliveryState(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    static DeliveryState fromWire(String value) {
        for (DeliveryState s : values()) {
            if (s.wire.equals(value)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown delivery state " + value);
    }
}
