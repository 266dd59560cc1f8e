package dev.sluice.output;

import java.util.Arrays;

/**
 * The first bytes of a stream, up to a fixed capacity. Storage grows fourfold
 * ({@link TailRing#GROWTH}, as the tail ring does),
 * so a stream that prints a kilobyte holds a few kilobytes, not the whole
 * capacity, and filling it copies a third of what it holds rather than all
 * of it, as doubling would.
 */
final class HeadBuffer {

    private final int capacity;
    private byte[] bytes;
    private int length;

    HeadBuffer(int capacity, int initialSize) {
        this.capacity = capacity;
        this.bytes = new byte[Math.min(capacity, initialSize)];
    }

    /** Appends as much of the chunk as fits and returns how many bytes it took. */
    int append(byte[] chunk, int offset, int count) {
        int taken = Math.min(count, capacity - length);
        if (taken == 0) {
            return 0;
        }
        ensureRoom(length + taken);
        System.arraycopy(chunk, offset, bytes, length, taken);
        length += taken;
        return taken;
    }

    private void ensureRoom(int needed) {
        if (needed > bytes.length) {
            int size = Math.max(needed, (int) Math.min(capacity, TailRing.GROWTH * bytes.length));
            bytes = Arrays.copyOf(bytes, size);
        }
    }

    /** The backing array: valid from 0 to {@link #length()}. */
    byte[] array() {
        return bytes;
    }

    int length() {
        return length;
    }

    int allocated() {
        return bytes.length;
    }
}
