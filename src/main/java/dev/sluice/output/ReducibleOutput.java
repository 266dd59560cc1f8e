package dev.sluice.output;

import java.nio.charset.StandardCharsets;

import dev.sluice.json.JsonSize;

/**
 * A captured stream that the callback budget may shorten further (ADR 0033):
 * whole characters go from the end of its head or the start of its tail,
 * always beside the marker, so what the text leaves out stays one stretch.
 * A stream that was whole is split as the collector splits its room, a
 * quarter head and the rest tail, and gets a marker there once cut. The overflow
 * record keeps the capture's counts; its {@code keptBytes} is the new length,
 * and the marker states the bytes removed.
 */
public final class ReducibleOutput {

    /** Which kept part of a stream loses characters. */
    public enum Part {
        HEAD,
        TAIL
    }

    private final CapturedOutput captured;
    private final TruncationMarker marker;
    private final long availableFrom;
    private final byte[] text;
    private final int headLength;
    private final int tailStart;
    private int headEnd;
    private int tailFrom;

    /**
     * @param nonce         the dispatch's marker nonce: it finds the marker of a
     *                      truncated stream, and marks a whole one once it is cut
     * @param availableFrom the first byte of the stream the runtime's log still holds
     */
    public ReducibleOutput(CapturedOutput captured, String stream, String fullLog, String nonce, long availableFrom) {
        this.captured = captured;
        this.availableFrom = availableFrom;
        this.marker = new TruncationMarker(stream, fullLog, nonce);
        this.text = captured.text().bytes();
        int at = captured.truncated() ? marker.find(text) : -1;
        if (at < 0) {
            int quarter = text.length / 4;
            while (quarter > 0 && Utf8.isContinuation(text[quarter])) {
                quarter--;
            }
            this.headLength = quarter;
            this.tailStart = quarter;
        } else {
            this.headLength = at;
            this.tailStart = ByteScan.indexOf(text, at + 1, text.length, (byte) '\n') + 1;
        }
        this.headEnd = headLength;
        this.tailFrom = tailStart;
    }

    /**
     * Removes whole characters from the part, beside the marker, until at least
     * {@code jsonBytes} bytes of its JSON string (escapes included) are gone or
     * the part is empty; returns the UTF-8 bytes removed.
     */
    public int reduce(Part part, long jsonBytes) {
        long gone = 0;
        int removed = 0;
        if (part == Part.HEAD) {
            while (gone < jsonBytes && headEnd > 0) {
                int start = headEnd - 1;
                while (start > 0 && Utf8.isContinuation(text[start])) {
                    start--;
                }
                gone += JsonSize.escaped(text, start, headEnd);
                removed += headEnd - start;
                headEnd = start;
            }
        } else {
            while (gone < jsonBytes && tailFrom < text.length) {
                int end = tailFrom + 1;
                while (end < text.length && Utf8.isContinuation(text[end])) {
                    end++;
                }
                gone += JsonSize.escaped(text, tailFrom, end);
                removed += end - tailFrom;
                tailFrom = end;
            }
        }
        return removed;
    }

    /** UTF-8 bytes removed so far. */
    public long removed() {
        return (headLength - headEnd) + (long) (tailFrom - tailStart);
    }

    /** The stream as reduced: the captured one when nothing was removed. */
    public CapturedOutput output() {
        long removed = removed();
        if (removed == 0) {
            return captured;
        }
        long dropped = captured.truncated() ? captured.overflow().droppedBytes() : 0;
        byte[] line = marker.render(dropped, captured.originalBytes(), availableFrom, removed)
                .getBytes(StandardCharsets.UTF_8);
        byte[] reduced = new byte[headEnd + line.length + (text.length - tailFrom)];
        System.arraycopy(text, 0, reduced, 0, headEnd);
        System.arraycopy(line, 0, reduced, headEnd, line.length);
        System.arraycopy(text, tailFrom, reduced, headEnd + line.length, text.length - tailFrom);
        return captured.withText(
                Utf8Text.wrap(reduced),
                new Overflow(captured.originalBytes(), reduced.length, dropped, marker.nonce()));
    }
}
