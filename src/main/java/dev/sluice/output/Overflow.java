package dev.sluice.output;

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
public record Overflow(long originalBytes, long keptBytes, long droppedBytes, String nonce) {}
