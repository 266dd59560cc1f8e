package dev.sluice.output;

/**
 * One stream, bounded: the text to return and, only when it was truncated, what
 * was left out.
 *
 * @param text          well-formed UTF-8; its length never exceeds the cap
 * @param originalBytes every byte the process wrote to the stream
 * @param overflow      {@code null} unless the stream was truncated
 * @param digest        the whole stream's digest; {@code null} only when no output was read
 * @param format        {@code null} when the dispatch asked for text; otherwise how
 *                      the structured capture it asked for went (ADR 0031)
 * @param witness       what the witness in the container counted, set against what
 *                      was received (ADR 0045); {@code null} when no output was read
 */
public record CapturedOutput(
        Utf8Text text,
        long originalBytes,
        Overflow overflow,
        StreamDigest digest,
        FormatOutcome format,
        StreamWitness witness) {

    /** The output of a dispatch whose streams were never read: it did not run, or its output was lost. */
    public static final CapturedOutput EMPTY = new CapturedOutput(Utf8Text.EMPTY, 0, null, null, null, null);

    /** A stream as its collector finished it, before it is set against a witness. */
    public CapturedOutput(
            Utf8Text text, long originalBytes, Overflow overflow, StreamDigest digest, FormatOutcome format) {
        this(text, originalBytes, overflow, digest, format, null);
    }

    /** A stream captured as text, as the dispatch asked. */
    public CapturedOutput(Utf8Text text, long originalBytes, Overflow overflow, StreamDigest digest) {
        this(text, originalBytes, overflow, digest, null);
    }

    /**
     * This stream as the witness judged it: when bytes were lost, the text
     * ends with the loss marker (within the cap, which the collector kept room
     * for), the overflow's {@code keptBytes} counts it, and the digest is named
     * as that of what was received.
     */
    CapturedOutput witnessed(StreamWitness judged, LossMarker marker) {
        if (!judged.incomplete()) {
            return new CapturedOutput(text, originalBytes, overflow, digest, format, judged);
        }
        byte[] marked = marker.append(text.bytes(), judged);
        Overflow kept = overflow == null ? null : overflow.withKeptBytes(marked.length);
        return new CapturedOutput(
                Utf8Text.wrap(marked), originalBytes, kept, digest == null ? null : digest.received(), format, judged);
    }

    /** The same output with other text and overflow (the callback budget's cuts); the rest is kept. */
    public CapturedOutput withText(Utf8Text text, Overflow overflow) {
        return new CapturedOutput(text, originalBytes, overflow, digest, format, witness);
    }

    public boolean truncated() {
        return overflow != null;
    }

    /** The estimated tokens of the returned text ({@link TokenEstimate}). */
    public long tokens() {
        return TokenEstimate.of(text.length());
    }
}
