package dev.sluice.events;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import dev.sluice.output.SecretMasker;

/**
 * One stream's live output held for one subscriber, at most {@code capacity}
 * bytes. The reader thread {@link #offer offers} chunks and never waits: what
 * does not fit is counted, not kept, and from then on everything is counted
 * until the subscriber has been sent what was held, so the bytes it is shown
 * are always contiguous and a gap sits between them. The sender {@link #take
 * takes} windows of at most its byte budget, masked, cut at whole UTF-8
 * characters. The bytes just before the next window (as many as the longest
 * form of a secret) are kept as they were written, so a window is masked as
 * the whole stream is: a secret that began before it is found whole.
 */
final class TailBuffer {

    private static final byte[] NONE = new byte[0];
    private static final int FIRST_ALLOCATION = 4096;

    /**
     * What a take yields: a window of {@code bytes} bytes at {@code offset} as
     * text ({@code null} when none), and after it the bytes missed (or 0).
     */
    record Taken(long offset, int bytes, String text, long gapOffset, long gapBytes) {

        static final Taken NOTHING = new Taken(0, 0, null, 0, 0);
    }

    private final int capacity;
    private byte[] bytes = NONE;
    private int length;
    private long offset;
    private long gapOffset;
    private long gap;
    /** What the stream held just before {@link #offset}, unmasked, while no gap lies between. */
    private StreamEdge before = new StreamEdge();

    TailBuffer(int capacity) {
        this.capacity = capacity;
    }

    /** The stream's bytes just before the first this buffer will be offered. */
    synchronized void startAfter(StreamEdge edge) {
        before = edge;
    }

    /** Called on the reader thread: a copy of what fits, a count of the rest. */
    synchronized void offer(long at, byte[] chunk, int from, int count) {
        int taken = gap > 0 ? 0 : Math.min(count, capacity - length);
        if (taken > 0) {
            if (length == 0) {
                offset = at;
            }
            if (bytes.length < length + taken) {
                int grown = Math.max(length + taken, Math.max(FIRST_ALLOCATION, 2 * bytes.length));
                bytes = Arrays.copyOf(bytes, Math.min(capacity, grown));
            }
            System.arraycopy(chunk, from, bytes, length, taken);
            length += taken;
        }
        if (taken < count) {
            if (gap == 0) {
                gapOffset = at + taken;
            }
            gap += count - taken;
        }
    }

    synchronized boolean pending() {
        return length > 0 || gap > 0;
    }

    /**
     * Takes at most {@code budget} bytes, masked. A window ends at a whole
     * character; a character whose last bytes have not arrived waits for them,
     * unless {@code last}: the stream has ended, and then what the budget
     * leaves behind is counted as missed. The gap follows the window once
     * everything before it has been taken. {@code masker} holds the
     * dispatch's secrets: a secret whose start is in the window but whose end
     * has not arrived is masked, since what follows cannot be known yet.
     */
    synchronized Taken take(int budget, boolean last, SecretMasker masker) {
        int n = Math.min(budget, length);
        // Past a gap the rest of a cut character will never come.
        if (n < length || (!last && gap == 0)) {
            n = wholeCharacters(bytes, n);
        }
        String text = null;
        long at = offset;
        if (n > 0) {
            int known = before.before(at);
            byte[] window = new byte[known + n];
            before.copyTo(at, window);
            System.arraycopy(bytes, 0, window, known, n);
            before.append(at, bytes, 0, n, masker.margin());
            // With the bytes before it a secret across the window's start is found whole; after a gap, guessed at.
            masker.mask(window, 0, known + n, at - known == 0, last && n == length);
            text = new String(window, known, n, StandardCharsets.UTF_8);
            System.arraycopy(bytes, n, bytes, 0, length - n);
            length -= n;
            offset += n;
        }
        if (last && length > 0) {
            gapOffset = offset;
            gap += length;
            length = 0;
        }
        long missedAt = gapOffset;
        long missed = 0;
        if (length == 0 && gap > 0) {
            missed = gap;
            gap = 0;
        }
        if (length == 0) {
            bytes = NONE; // an idle subscriber holds no buffer
        }
        return text == null && missed == 0 ? Taken.NOTHING : new Taken(at, n, text, missedAt, missed);
    }

    /** The longest prefix of {@code b[0, n)} that does not end inside a UTF-8 sequence. */
    static int wholeCharacters(byte[] b, int n) {
        for (int i = n - 1; i >= Math.max(0, n - 3); i--) {
            int lead = b[i] & 0xff;
            if (lead < 0x80) {
                return n; // ASCII: nothing is open
            }
            if (lead >= 0xc0) {
                int size = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
                return i + size <= n ? n : i;
            }
        }
        return n; // no lead byte near the end: ill-formed, sent as it is
    }
}
