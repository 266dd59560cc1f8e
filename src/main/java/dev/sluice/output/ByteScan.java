package dev.sluice.output;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Looks for one byte value eight bytes at a time, for the paths every byte of
 * a stream goes through (newlines for the digest, a secret's first byte for
 * masking): a word with no match costs a few instructions, not eight compares.
 */
final class ByteScan {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long LOW_SEVEN = 0x7F7F7F7F7F7F7F7FL;
    private static final long HIGH = 0x8080808080808080L;
    /** Added to a byte's low seven bits, carries into its top bit exactly when they are 0x20 or more. */
    private static final long FROM_SPACE = 0x6060606060606060L;

    private ByteScan() {}

    /** How many bytes of {@code b[from, to)} equal {@code value}. */
    static long count(byte[] b, int from, int to, byte value) {
        long pattern = (value & 0xFFL) * ONES;
        long n = 0;
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            long m = matches((long) LONGS.get(b, i) ^ pattern);
            if (m != 0) { // counted only where there is something: no bitCount intrinsic under C1
                n += Long.bitCount(m);
            }
        }
        for (; i < to; i++) {
            if (b[i] == value) {
                n++;
            }
        }
        return n;
    }

    /** Eight bytes of {@code b} from {@code i}, the first in the lowest bits. */
    static long word(byte[] b, int i) {
        return (long) LONGS.get(b, i);
    }

    /**
     * The top bit of each byte of {@code x} a JSON encoder may write as more
     * than one byte, and perhaps of a few more: controls below 0x20, every
     * byte of 0x80 or above (an ill-formed one becomes an escaped U+FFFD),
     * {@code "}, {@code \\}, {@code <}, {@code >} and {@code &}. Bytes that
     * differ in a few bits are found with one compare: {@code "} and {@code &}
     * with bit 0x04 set are 0x26; {@code <}, {@code >} and {@code \\} with bits
     * 0x62 set are 0x7E, as are {@code ^}, {@code |} and {@code ~}, which are
     * taken in too. A compare is {@code (y - ONES) & ~y} of the bytes XORed
     * with the value: it sets the top bit of each zero byte, and perhaps of a
     * byte 0x01 above one (the borrow of a zero byte runs into the next), in
     * two instructions where {@link #matches} takes five; for counting an
     * upper bound only. The top bits are masked once, for all the parts.
     */
    static long jsonEscaped(long x) {
        long control = ~((x & LOW_SEVEN) + FROM_SPACE);
        long angle = (x | 0x6262626262626262L) ^ 0x7E7E7E7E7E7E7E7EL;
        long quote = (x | 0x0404040404040404L) ^ 0x2626262626262626L;
        return (x | control | ((angle - ONES) & ~angle) | ((quote - ONES) & ~quote)) & HIGH;
    }

    /** The top bit of each byte of {@code x} that equals {@code value}, and no other bit. */
    static long equal(long x, byte value) {
        return matches(x ^ ((value & 0xFFL) * ONES));
    }

    /** One byte as {@link #jsonEscaped(long)} finds it: as a signed byte, 0x80 and above are below 0x20 too. */
    static boolean jsonEscaped(byte c) {
        return c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&';
    }

    /** The first index in {@code b[from, to)} holding {@code value}, or -1. */
    static int indexOf(byte[] b, int from, int to, byte value) {
        long pattern = (value & 0xFFL) * ONES;
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            long m = matches((long) LONGS.get(b, i) ^ pattern);
            if (m != 0) {
                // Little-endian: the lowest set bit belongs to the first matching byte.
                return i + (Long.numberOfTrailingZeros(m) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (b[i] == value) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The top bit of each byte of {@code x} that is zero, and no other bit: the
     * low seven bits of a byte plus 0x7F carry into its top bit unless they are
     * all zero, and never into the next byte.
     */
    private static long matches(long x) {
        return ~(((x & LOW_SEVEN) + LOW_SEVEN) | x | LOW_SEVEN);
    }
}
