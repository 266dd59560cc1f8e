package dev.sluice.output;

import java.util.Arrays;

/**
 * The last bytes of a stream, up to a fixed capacity. It allocates nothing
 * until the first append, and until it first fills it is a plain growing
 * buffer (so short streams hold little); after that it overwrites its oldest
 * bytes.
 */
final class TailRing {

    /**
     * How many times larger storage becomes each time it grows until it first
     * fills: a stream holds at most four times what it printed, below the
     * capacity, and a fill copies a third of it, where doubling copied all of
     * it and zeroed twice as much (ingest of a fresh collector, P4).
     */
    static final long GROWTH = 4;

    private static final byte[] NONE = new byte[0];

    private final int capacity;
    private final int initialSize;
    private byte[] bytes = NONE;
    /** Bytes held, at most {@code capacity}. */
    private int size;
    /** Where the next byte goes once the ring has wrapped; 0 before. */
    private int next;

    private boolean wrapped;

    TailRing(int capacity, int initialSize) {
        this.capacity = capacity;
        this.initialSize = Math.min(capacity, initialSize);
    }

    void append(byte[] chunk, int offset, int count) {
        if (count == 0 || capacity == 0) {
            return;
        }
        if (count >= capacity) {
            // Only the chunk's own last bytes can survive.
            ensureRoom(capacity);
            System.arraycopy(chunk, offset + count - capacity, bytes, 0, capacity);
            size = capacity;
            next = 0;
            wrapped = true;
            return;
        }
        if (!wrapped && size + count <= capacity) {
            ensureRoom(size + count);
            System.arraycopy(chunk, offset, bytes, size, count);
            size += count;
            next = size % capacity;
            wrapped = size == capacity;
            return;
        }
        ensureRoom(capacity);
        int first = Math.min(count, capacity - next);
        System.arraycopy(chunk, offset, bytes, next, first);
        System.arraycopy(chunk, offset + first, bytes, 0, count - first);
        next = (next + count) % capacity;
        size = capacity;
        wrapped = true;
    }

    private void ensureRoom(int needed) {
        if (needed > bytes.length) {
            int grown = Math.max(Math.max(needed, initialSize), (int) Math.min(capacity, GROWTH * bytes.length));
            bytes = Arrays.copyOf(bytes, grown);
        }
    }

    int size() {
        return size;
    }

    /**
     * The held bytes, oldest first, at the start of the ring's own array
     * ({@link #size()} of them): the ring is turned in place, without a copy,
     * and must not be appended to afterwards.
     */
    byte[] inOrder() {
        if (wrapped && next != 0) {
            // Rotate left by next: three reversals, in place.
            reverse(bytes, 0, next);
            reverse(bytes, next, size);
            reverse(bytes, 0, size);
            next = 0;
        }
        return bytes;
    }

    private static void reverse(byte[] b, int from, int to) {
        for (int i = from, j = to - 1; i < j; i++, j--) {
            byte t = b[i];
            b[i] = b[j];
            b[j] = t;
        }
    }

    int allocated() {
        return bytes.length;
    }
}
