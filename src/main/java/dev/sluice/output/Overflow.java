package dev.sluice.output;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What a truncated stream left out. Present in a result exactly when its stream
 * was truncated; these fields, not the marker text, are the authoritative record.
 *
 * @param originalBytes every byte the process wrote to the stream
 * @param keptBytes     the UTF-8 length of the returned string, marker included
 * @param droppedBytes  the bytes of the stream between the kept head and tail,
 *                      which the string does not show
 * @param nonce         the dispatch's {@link MarkerNonce}: the one marker line
 *                      the worker wrote into the string carries it
 */
@Schema(
        name = "Overflow",
        description = "What a truncated stream left out; authoritative, unlike the marker text (docs/api.md, 7.2).")
public record Overflow(
        @Schema(required = true, description = "every byte the process wrote to the stream")
        long originalBytes,

        @Schema(required = true, description = "the UTF-8 length of the returned string, marker included")
        long keptBytes,

        @Schema(required = true, description = "the stream's bytes between the kept head and tail")
        long droppedBytes,

        @Schema(
                required = true,
                description = "this dispatch's marker nonce: the one marker line the worker wrote into the "
                        + "string carries it (section 7.2)")
        String nonce) {}
