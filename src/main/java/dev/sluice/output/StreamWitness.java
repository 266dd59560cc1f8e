package dev.sluice.output;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * What the output witness in the container counted of one stream, set
 * against what the worker received (ADR 0045, docs/api.md 7.12). The
 * witness sees every byte the process writes before the engine copies it, so
 * a result is complete only when the two agree; an end the engine dropped is
 * restored from the witness's copy of the stream's last bytes when that copy
 * proves to be exactly what is missing.
 *
 * @param state          {@link #COMPLETE}, {@link #RECOVERED}, {@link #INCOMPLETE} or {@link #UNWITNESSED}
 * @param writtenBytes   what the process wrote, by the witness; {@code null} when unwitnessed
 * @param receivedBytes  what reached the worker through the engine
 * @param lostBytes      the process's bytes the result lacks: 0 unless {@code incomplete}
 * @param recoveredBytes bytes restored from the witness's copy of the end, not from the engine
 * @param lostAt         where the lost bytes were: {@code end}, {@code middle} or {@code unknown}; absent
 *                       unless {@code incomplete}
 * @param reason         why unwitnessed ({@link #OFF}, {@link #MISSING}, {@link #KILLED}, {@link #UNREADABLE},
 *                       {@link #TAMPERED}, {@link #UNVERIFIABLE}); absent unless {@code unwitnessed}
 * @param detail         for people, in the worker's words only: why unwitnessed, or what was lost or restored;
 *                       absent when complete
 */
@Schema(
        name = "StreamWitness",
        description = "What the process wrote to the stream, counted inside the container, against what the "
                + "worker received (docs/api.md, 7.12).")
@JsonPropertyOrder({
    "state",
    "writtenBytes",
    "receivedBytes",
    "lostBytes",
    "recoveredBytes",
    "lostAt",
    "reason",
    "detail"
})
public record StreamWitness(
        @Schema(
                required = true,
                enumeration = {COMPLETE, RECOVERED, INCOMPLETE, UNWITNESSED})
        String state,

        @Schema(required = true, nullable = true, description = "bytes the process wrote, counted by the witness")
        Long writtenBytes,

        @Schema(required = true, description = "bytes that reached the worker through the runtime")
        long receivedBytes,

        @Schema(required = true, description = "bytes the process wrote that the result lacks")
        long lostBytes,

        @Schema(required = true, description = "bytes restored from the witness's copy of the stream's end")
        long recoveredBytes,

        @Schema(
                description = "absent unless incomplete: where the lost bytes were",
                enumeration = {END, MIDDLE, UNKNOWN})
        @JsonInclude(JsonInclude.Include.NON_NULL)
        String lostAt,

        @Schema(
                description = "absent unless unwitnessed: why no record of the witness could be believed",
                enumeration = {OFF, MISSING, KILLED, UNREADABLE, TAMPERED, UNVERIFIABLE})
        @JsonInclude(JsonInclude.Include.NON_NULL)
        String reason,

        @Schema(
                description = "absent when complete: for people, in the worker's words, why unwitnessed, or what"
                        + " was lost or restored")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        String detail) {

    /** The worker received exactly what the process wrote. */
    public static final String COMPLETE = "complete";
    /** The runtime dropped the end; the witness's copy of it was proven to be what was missing, and restored. */
    public static final String RECOVERED = "recovered";
    /** Bytes the process wrote are missing from the result, or what arrived is not what it wrote. */
    public static final String INCOMPLETE = "incomplete";
    /** No witness counted the stream: completeness is not known. */
    public static final String UNWITNESSED = "unwitnessed";

    /** No witness ran in the container: turned off, no out-directory, none in this build, or nothing to run. */
    public static final String OFF = "off";
    /** The witness left no record: it could not write one, or something removed it. */
    public static final String MISSING = "missing";
    /** The witness was killed by a signal before it wrote its record (a stop past its grace, the OOM killer). */
    public static final String KILLED = "killed";
    /** A record is there but could not be read: not a regular file, too large, or the engine did not give it. */
    public static final String UNREADABLE = "unreadable";
    /** The record fails its authentication: something other than the witness wrote or changed it. */
    public static final String TAMPERED = "tampered";
    /** The container has no witness key to check a record with: it was created by an earlier worker. */
    public static final String UNVERIFIABLE = "unverifiable";

    public static final String END = "end";
    public static final String MIDDLE = "middle";
    public static final String UNKNOWN = "unknown";

    public static StreamWitness complete(long bytes) {
        return new StreamWitness(COMPLETE, bytes, bytes, 0, 0, null, null, null);
    }

    public static StreamWitness recovered(long written, long received) {
        return new StreamWitness(
                RECOVERED,
                written,
                received,
                0,
                written - received,
                null,
                null,
                "the runtime dropped the last " + (written - received)
                        + " bytes; restored from the witness's copy of the stream's end");
    }

    public static StreamWitness incomplete(long written, long received, String lostAt, String detail) {
        return new StreamWitness(
                INCOMPLETE, written, received, Math.max(0, written - received), 0, lostAt, null, detail);
    }

    public static StreamWitness unwitnessed(long received, String reason, String detail) {
        return new StreamWitness(UNWITNESSED, null, received, 0, 0, null, reason, detail);
    }

    /** Whether the result lacks bytes the process wrote, or holds bytes it did not write. */
    public boolean incomplete() {
        return INCOMPLETE.equals(state);
    }
}
