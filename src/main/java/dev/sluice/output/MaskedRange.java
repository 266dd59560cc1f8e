package dev.sluice.output;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes bytes {@code [from, to)} of a stream, masked, while the stream's
 * bytes arrive in order, holding one block and the masker's margin on each
 * side of it, never the range (ADR 0054). Each block is masked in a copy that
 * reaches a margin past both its edges, so every form of a secret that
 * touches the block lies wholly in the copy: the bytes written are those that
 * masking the whole range at once, with a margin around it, would give.
 */
public final class MaskedRange {

    /** Bytes masked and written at a time. */
    static final int BLOCK = 64 * 1024;

    private final SecretMasker masker;
    private final long from;
    private final long to;
    private final boolean logStart;
    private final OutputStream out;
    private final int margin;
    private final int block;
    private final long windowStart;
    private final long windowEnd;
    private final byte[] held;
    private final byte[] scratch;
    private long heldStart;
    private int heldLength;
    private long next;
    private long position;

    /**
     * @param from     the range's first byte, counted from the first byte the runtime's log holds
     * @param to       the byte after its last
     * @param logStart whether the log's first byte is the stream's: a secret cannot begin before it
     */
    public MaskedRange(SecretMasker masker, long from, long to, boolean logStart, OutputStream out) {
        this(masker, from, to, logStart, out, BLOCK);
    }

    MaskedRange(SecretMasker masker, long from, long to, boolean logStart, OutputStream out, int block) {
        this.masker = masker;
        this.from = from;
        this.to = to;
        this.logStart = logStart;
        this.out = out;
        this.margin = masker.margin();
        this.block = block;
        this.windowStart = Math.max(0, from - margin);
        this.windowEnd = to + margin;
        this.held = new byte[masker.isEmpty() ? 0 : block + 2 * margin];
        this.scratch = new byte[held.length];
        this.heldStart = windowStart;
        this.next = from;
    }

    /** Every byte the range and its margins need has arrived: the rest of the stream may be left unread. */
    public boolean complete() {
        return position >= windowEnd;
    }

    /** Bytes of the range written so far. */
    public long written() {
        return next - from;
    }

    /** The stream's next {@code count} bytes. */
    public void accept(byte[] chunk, int offset, int count) throws IOException {
        long start = position;
        position += count;
        long first = Math.max(start, Math.max(windowStart, heldStart + heldLength));
        long last = Math.min(position, windowEnd);
        if (masker.isEmpty()) {
            writeUnmasked(chunk, offset, start, Math.max(first, next), Math.min(last, to));
            return;
        }
        while (first < last) {
            int room = held.length - heldLength;
            int take = (int) Math.min(room, last - first);
            System.arraycopy(chunk, offset + (int) (first - start), held, heldLength, take);
            heldLength += take;
            first += take;
            drain(false);
        }
    }

    /**
     * The stream ended: what is held is written. {@code streamEnded} is true
     * when the stream ended before the range's far margin (then a secret
     * cannot go on past its last byte), false when reading stopped there.
     */
    public void finish(boolean streamEnded) throws IOException {
        if (!masker.isEmpty()) {
            drain(streamEnded);
        }
    }

    private void writeUnmasked(byte[] chunk, int offset, long start, long first, long last) throws IOException {
        if (first < last) {
            out.write(chunk, offset + (int) (first - start), (int) (last - first));
            next = last;
        }
    }

    /** Writes each block whose far margin has arrived, or, at the stream's end, all that is held. */
    private void drain(boolean ended) throws IOException {
        long heldEnd = heldStart + heldLength;
        while (next < to) {
            long blockEnd = Math.min(next + block, to);
            if (!ended && heldEnd < blockEnd + margin) {
                return;
            }
            blockEnd = Math.min(blockEnd, heldEnd);
            if (blockEnd <= next) {
                return;
            }
            write(next, blockEnd, ended);
        }
    }

    private void write(long from, long until, boolean ended) throws IOException {
        long heldEnd = heldStart + heldLength;
        long contextFrom = Math.max(heldStart, from - margin);
        long contextTo = Math.min(heldEnd, until + margin);
        int length = (int) (contextTo - contextFrom);
        System.arraycopy(held, (int) (contextFrom - heldStart), scratch, 0, length);
        masker.mask(scratch, 0, length, contextFrom == 0 && logStart, ended && contextTo == heldEnd);
        out.write(scratch, (int) (from - contextFrom), (int) (until - from));
        next = until;
        let(next - margin);
    }

    /** Forgets what is held before {@code keepFrom}: no block to come reaches back past it. */
    private void let(long keepFrom) {
        int drop = (int) Math.max(0, Math.min(heldLength, keepFrom - heldStart));
        if (drop > 0) {
            System.arraycopy(held, drop, held, 0, heldLength - drop);
            heldLength -= drop;
            heldStart += drop;
        }
    }
}
