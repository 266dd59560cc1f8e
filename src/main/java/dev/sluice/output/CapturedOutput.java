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
 */
public record CapturedOutput(
        Utf8Text text, long originalBytes, Overflow overflow, StreamDigest digest, FormatOutcome format) {

    /** The output of a dispatch whose streams were never read: it did not run, or its output was lost. */
    public static final CapturedOutput EMPTY = new CapturedOutput(Utf8Text.EMPTY, 0, null, null, null);

    /** A stream captured as text, as the dispatch asked. */
    public CapturedOutput(Utf8Text text, long originalBytes, Overflow overflow, StreamDigest digest) {
        this(text, originalBytes, overflow, digest, null);
    }

    public boolean truncated() {
        return overflow != null;
    }

    /** The estimated tokens of the returned text ({@link TokenEstimate}). */
    public long tokens() {
        return TokenEstimate.of(text.length());
    }
}
