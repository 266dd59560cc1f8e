package dev.sluice.output;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What a whole stream was, whatever the cap kept of it: its SHA-256, its
 * length and its lines, over the bytes as the logs endpoint serves them (the
 * bytes the process wrote, each byte of a secret value replaced by {@code *}).
 *
 * @param sha256 the SHA-256 of the stream, 64 lowercase hexadecimal digits
 * @param bytes  the stream's length in bytes: every byte the process wrote
 * @param lines  the number of newline bytes (0x0A) in it, as {@code wc -l}
 *               counts: a last line without a newline is not counted
 * @param covers {@link #STREAM} when these are the stream's, {@link #RECEIVED}
 *               when the witness showed bytes missing and they are only those
 *               of what reached the worker (ADR 0045); absent in results
 *               stored before it existed
 */
public record StreamDigest(
        String sha256,
        long bytes,
        long lines,

        @Schema(
                description = "stream: these describe the whole stream; received: the witness showed bytes "
                        + "missing, and these describe only what reached the worker (section 7.12)",
                enumeration = {STREAM, RECEIVED})
        @JsonInclude(JsonInclude.Include.NON_NULL)
        String covers) {

    public static final String STREAM = "stream";
    public static final String RECEIVED = "received";

    public StreamDigest(String sha256, long bytes, long lines) {
        this(sha256, bytes, lines, STREAM);
    }

    /** The same counts, named as those of what was received rather than of the stream. */
    public StreamDigest received() {
        return new StreamDigest(sha256, bytes, lines, RECEIVED);
    }
}
