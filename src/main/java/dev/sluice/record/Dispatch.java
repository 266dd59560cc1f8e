package dev.sluice.record;

import java.time.Instant;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonValue;

import dev.sluice.trace.Tracing;

/**
 * A dispatch as stored: its state and, once terminal, its result. Secrets are
 * never part of it. Listings read it without {@code result} (null there) and
 * show the {@code summary}.
 */
public record Dispatch(
        String id,
        Status status,
        String image,
        Instant createdAt,
        Instant startedAt,
        Instant finishedAt,
        Map<String, Object> metadata,
        String callbackUrl,
        StoredResult result,
        DispatchSummary summary,
        String workerId,
        String containerId,
        boolean hasSecrets,
        String fingerprint,
        int attempt,
        String traceparent) {

    /** The trace its spans carry (ADR 0069); null for a dispatch accepted before traces existed. */
    public String traceId() {
        return Tracing.traceId(traceparent).orElse(null);
    }

    /** The lifecycle (docs/api.md, section 6): terminal states never change. */
    @Schema(
            name = "DispatchStatus",
            description = "queued, starting and running are not terminal; the others are, and never change "
                    + "(docs/api.md, section 6)")
    public enum Status {
        QUEUED("queued"),
        STARTING("starting"),
        RUNNING("running"),
        SUCCEEDED("succeeded"),
        FAILED("failed"),
        TIMED_OUT("timed_out"),
        CANCELLED("cancelled"),
        ERROR("error");

        private final String wire;

        Status(String wire) {
            this.wire = wire;
        }

        @JsonValue
        public String wire() {
            return wire;
        }

        public boolean terminal() {
            return ordinal() >= SUCCEEDED.ordinal();
        }

        public static Status fromWire(String value) {
            for (Status s : values()) {
                if (s.wire.equals(value)) {
                    return s;
                }
            }
            throw new IllegalArgumentException("unknown status " + value);
        }
    }
}
