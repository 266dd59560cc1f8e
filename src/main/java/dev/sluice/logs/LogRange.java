package dev.sluice.logs;

/**
 * A byte range of one of a dispatch's streams, read back from the runtime and masked.
 *
 * @param bytes    the stream's bytes from {@code offset}, at most the limit asked for
 * @param offset   where they start in the stream
 * @param endOfLog true when the range reaches the end of what the runtime holds
 */
public record LogRange(byte[] bytes, long offset, boolean endOfLog) {}
