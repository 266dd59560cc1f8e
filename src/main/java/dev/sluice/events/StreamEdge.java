package dev.sluice.events;

/**
 * The last bytes of one stream as the process wrote them, at most as many as
 * asked to keep, and the offset where they end: what lies just before the
 * next window of a live tail, so that a secret which began before the window
 * is found whole rather than guessed at from the window's edge. A ring: a
 * chunk costs a copy of at most the bytes kept, however many are kept.
 */
final class StreamEdge {

    private static final byte[] NONE = new byte[0];

    private byte[] ring = NONE;
    private int length;
    /** Where the next byte goes in the ring. */
    private int next;

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
        if (ring.length != keep) {
            resize(keep);
        }
        int fresh = Math.min(count, keep);
        int source = from + count - fresh;
        int first = Math.min(fresh, keep - next);
        System.arraycopy(b, source, ring, next, first);
        System.arraycopy(b, source + first, ring, 0, fresh - first);
        next = (next + fresh) % keep;
        length = Math.min(keep, length + fresh);
    }

    /** How many of the bytes kept end at {@code at}, which {@link #copyTo} gives: none when they end elsewhere. */
    int before(long at) {
        return at == end ? length : 0;
    }

    /** Copies to the start of {@code to} the bytes kept that end at {@code at}, as many as {@link #before} says. */
    void copyTo(long at, byte[] to) {
        int n = before(at);
        if (n == 0) {
            return;
        }
        int start = Math.floorMod(next - n, ring.length);
        int first = Math.min(n, ring.length - start);
        System.arraycopy(ring, start, to, 0, first);
        System.arraycopy(ring, 0, to, first, n - first);
    }

    StreamEdge copy() {
        StreamEdge copy = new StreamEdge();
        copy.ring = ring == NONE ? NONE : ring.clone();
        copy.length = length;
        copy.next = next;
        copy.end = end;
        return copy;
    }

    /** Keeps the last bytes held, in order, in a ring of {@code keep} bytes. */
    private void resize(int keep) {
        int kept = Math.min(length, keep);
        byte[] resized = new byte[keep];
        byte[] held = new byte[length];
        copyTo(end, held);
        System.arraycopy(held, length - kept, resized, 0, kept);
        ring = resized;
        length = kept;
        next = kept % keep;
    }
}
