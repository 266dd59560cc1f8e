package dev.sluice.output;

/**
 * What a whole stream was, whatever the cap kept of it: its SHA-256, its
 * length and its lines, over the bytes as the logs endpoint serves them (the
 * bytes the process wrote, each byte of a secret value replaced by {@code *}).
 *
 * @param sha256 the SHA-256 of the stream, 64 lowercase hexadecimal digits
 * @param bytes  the stream's length in bytes: every byte the process wrote
 * @param lines  the number of newline bytes (0x0A) in it, as {@code wc -l}
 *               counts: a last line without a newline is not counted
 */
public record StreamDigest(String sha256, long bytes, long lines) {}
