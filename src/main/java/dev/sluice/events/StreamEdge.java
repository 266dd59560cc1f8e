package dev.sluice.events;

import java.util.Arrays;

/**
 * The last bytes of one stream as the process wrote them, at most as many as
 * asked to keep, and the offset where they end: what lies just before the
 * next window of a live tail, so that a secret which began before the window
 * is found whole rather than guessed at from the window's edge.
 */
final class StreamEdge {

    private static final byte[] NONE = new byte[0];

    private byte[] bytes = NONE;
    private int length;
    private long end;

    /** Where the bytes kept end: the offset of the next byte of the stream. */
    long end() {
        return end;
    }

    /**
     * Appends {@code b[from, from + count)}, which begins at offset {@code at},
     * keeping the last {@code keep} bytes; bytes that do not adjoin what is
     * kept (a gap lies between) replace it.
     */
    void append(long at, byte[] b, int from, int count, int keep) {
        if (at != end) {
            length = 0;
        }
        end = at + count;
        if (keep <= 0) {
            length = 0;
            return;
        }
        if (bytes.length < keep) {
            bytes = Arrays.copyOf(bytes, keep);
        }
        int fresh = Math.min(count, keep);
        int old = Math.min(length, keep - fresh);
        System.arraycopy(bytes, length - old, bytes, 0, old);
        System.arraycopy(b, from + count - fresh, bytes, old, fresh);
        length = old + fresh;
    }

    /** How many of the bytes kept end at {@code at}, which {@link #copyTo} gives: none when they end elsewhere. */
    int before(long at) {
        return at == end ? length : 0;
    }

    /** Copies to the start of {@code to} the bytes kept that end at {@code at}, as many as {@link #before} says. */
    void copyTo(long at, byte[] to) {
        System.arraycopy(bytes, 0, to, 0, before(at));
    }

    StreamEdge copy() {
        StreamEdge copy = new StreamEdge();
        copy.bytes = Arrays.copyOf(bytes, length);
        copy.length = length;
        copy.end = end;
        return copy;
    }
}
