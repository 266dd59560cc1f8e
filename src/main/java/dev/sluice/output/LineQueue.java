package dev.sluice.output;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Whole lines of a stream in order, removable from either end: the head and
 * the tail of a {@link JsonlCollector}. The bytes of the lines held sit in one
 * contiguous region, so they can be masked as one window; a line longer than
 * the cap is not held at all, only its offset and size. Each line costs four
 * bytes besides its own, so memory stays O(cap) however short the lines are.
 * Storage grows by doubling, and a region that reaches the end of its array is
 * moved back to the start, which copies each byte at most once per capacity
 * appended.
 */
final class LineQueue {

    /** The kinds of line, as the collector counts them. */
    static final int RECORD = 0;

    static final int TEXT = 1;
    static final int OVERSIZED = 2;

    private static final int TEXT_FLAG = 1 << 30;
    private static final int OVERSIZED_ENTRY = -1;

    private byte[] bytes = new byte[0];
    private int bytesStart;
    private int bytesEnd;

    /** Per line: its length, with {@link #TEXT_FLAG} for text, or {@link #OVERSIZED_ENTRY}. */
    private int[] lines = new int[0];

    private int linesStart;
    private int linesEnd;

    /** {offset, size} of each oversized line held, in order. */
    private final ArrayDeque<long[]> oversized = new ArrayDeque<>();

    boolean isEmpty() {
        return linesStart == linesEnd;
    }

    int size() {
        return linesEnd - linesStart;
    }

    /** Bytes of line content held. */
    int heldBytes() {
        return bytesEnd - bytesStart;
    }

    byte[] array() {
        return bytes;
    }

    int regionStart() {
        return bytesStart;
    }

    int regionEnd() {
        return bytesEnd;
    }

    int allocated() {
        return bytes.length + 4 * lines.length;
    }

    void add(int kind, byte[] line, int length) {
        makeRoomForBytes(length);
        System.arraycopy(line, 0, bytes, bytesEnd, length);
        bytesEnd += length;
        addEntry(kind == TEXT ? length | TEXT_FLAG : length);
    }

    void addOversized(long offset, long size) {
        oversized.addLast(new long[] {offset, size});
        addEntry(OVERSIZED_ENTRY);
    }

    /** The kind of the {@code i}-th line held. */
    int kind(int i) {
        int entry = lines[linesStart + i];
        return entry == OVERSIZED_ENTRY ? OVERSIZED : (entry & TEXT_FLAG) != 0 ? TEXT : RECORD;
    }

    /** The bytes of the {@code i}-th line held; 0 for an oversized one. */
    int length(int i) {
        int entry = lines[linesStart + i];
        return entry == OVERSIZED_ENTRY ? 0 : entry & ~TEXT_FLAG;
    }

    int oversizedCount() {
        return oversized.size();
    }

    /** The oversized lines held, in order, as {offset, size}. */
    Iterable<long[]> oversized() {
        return oversized;
    }

    /** Removes the first line; returns the stream bytes it stood for. */
    long removeFirst() {
        int entry = lines[linesStart++];
        if (entry == OVERSIZED_ENTRY) {
            return oversized.removeFirst()[1];
        }
        int length = entry & ~TEXT_FLAG;
        bytesStart += length;
        return length;
    }

    /** Removes the last line; returns the stream bytes it stood for. */
    long removeLast() {
        int entry = lines[--linesEnd];
        if (entry == OVERSIZED_ENTRY) {
            return oversized.removeLast()[1];
        }
        int length = entry & ~TEXT_FLAG;
        bytesEnd -= length;
        return length;
    }

    /** The kind of the first line, before {@link #removeFirst()}. */
    int firstKind() {
        return kind(0);
    }

    /** The kind of the last line, before {@link #removeLast()}. */
    int lastKind() {
        return kind(size() - 1);
    }

    private void addEntry(int entry) {
        if (linesEnd == lines.length) {
            int live = linesEnd - linesStart;
            if (linesStart > 0 && live <= lines.length / 2) {
                System.arraycopy(lines, linesStart, lines, 0, live);
            } else {
                lines = Arrays.copyOf(lines, Math.max(16, 2 * lines.length));
                System.arraycopy(lines, linesStart, lines, 0, live);
            }
            linesStart = 0;
            linesEnd = live;
        }
        lines[linesEnd++] = entry;
    }

    private void makeRoomForBytes(int length) {
        if (bytesEnd + length <= bytes.length) {
            return;
        }
        int live = bytesEnd - bytesStart;
        byte[] target = bytes;
        if (live + length > bytes.length / 2) {
            target = new byte[2 * (live + length)];
        }
        System.arraycopy(bytes, bytesStart, target, 0, live);
        bytes = target;
        bytesStart = 0;
        bytesEnd = live;
    }
}
