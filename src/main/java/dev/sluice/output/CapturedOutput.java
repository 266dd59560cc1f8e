package dev.sluice.output;

/**
 * One stream, bounded: the text to return and, only when it was truncated, what
 * was left out.
 *
 * @param text          well-formed UTF-8; its length never exceeds the cap
 * @param originalBytes every byte the process wrote to the stream
 * @param overflow      {@code null} unless the stream was truncated
 * @param digest        the whole stream's digest; {@code null} only when no output was read
 */
public record CapturedOutput(Utf8Text text, long originalBytes, Overflow overflow, StreamDigest digest) {

    /** The output of a dispatch whose streams were never read: it did not run, or its output was lost. */
    public static final CapturedOutput EMPTY = new CapturedOutput(Utf8Text.EMPTY, 0, null, null);

    public boolean truncated() {
        return overflow != null;
    }
}
