package dev.sluice.output;

/**
 * One stream, bounded: the text to return and, only when it was truncated, what
 * was left out.
 *
 * @param text          valid Unicode; its UTF-8 length never exceeds the cap
 * @param originalBytes every byte the process wrote to the stream
 * @param overflow      {@code null} unless the stream was truncated
 */
public record CapturedOutput(String text, long originalBytes, Overflow overflow) {

    public boolean truncated() {
        return overflow != null;
    }
}
