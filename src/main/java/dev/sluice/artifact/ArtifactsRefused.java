package dev.sluice.artifact;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What of the artifacts directory was not kept, and why (docs/api.md, section 7.8).
 *
 * @param count   entries refused
 * @param entries the first {@value #SHOWN} of them
 * @param detail  why the directory was not read whole, for people; {@code null} when it was
 */
@JsonPropertyOrder({"count", "entries", "detail"})
@Schema(name = "ArtifactsRefused", description = "What of the artifacts directory was not kept, and why.")
public record ArtifactsRefused(
        @Schema(required = true, description = "entries refused")
        int count,

        @Schema(required = true, description = "the first 20 of them")
        List<Entry> entries,

        @Schema(
                required = true,
                nullable = true,
                description = "why the directory was not read whole (a bound, the engine), for people")
        String detail) {

    public static final int SHOWN = 20;

    /** One refused entry. */
    @JsonPropertyOrder({"name", "reason"})
    @Schema(name = "ArtifactRefused")
    public record Entry(
            @Schema(required = true, description = "as the archive names it, cut to 256 characters")
            String name,

            @Schema(required = true) Reason reason) {}

    /** Why an entry was refused. */
    @Schema(name = "ArtifactRefusal")
    public enum Reason {
        /** Absolute, with {@code ..}, {@code .} or empty segments, a control character or a backslash. */
        UNSAFE_NAME("unsafe-name"),
        /** A symbolic or hard link: never followed. */
        LINK("link"),
        /** A FIFO, a device, a socket: anything but a regular file or a directory. */
        SPECIAL("special"),
        /** Larger than {@code sluice.artifacts.max-file-size}. */
        TOO_LARGE("too-large"),
        /** Would take the kept files past {@code sluice.artifacts.max-total-size}. */
        OVER_TOTAL("over-total"),
        /** Past {@code sluice.artifacts.max-count} kept files. */
        OVER_COUNT("over-count"),
        /** Not read: its data would take the read past its bound, so the read ended before it. */
        UNREAD("unread"),
        /** Could not be written to the worker's disk, or no room for it within {@code sluice.artifacts.max-disk}. */
        NOT_STORED("not-stored");

        private final String wire;

        Reason(String wire) {
            this.wire = wire;
        }

        @JsonValue
        public String wire() {
            return wire;
        }
    }
}
