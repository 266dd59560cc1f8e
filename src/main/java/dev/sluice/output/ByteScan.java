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
            n += Long.bitCount(matches((long) LONGS.get(b, i) ^ pattern));
        }
        for (; i < to; i++) {
            if (b[i] == value) {
                n++;
            }
        }
        return n;
    }

    /**
     * How many bytes of {@code b[from, to)} a JSON encoder may write as more
     * than one byte: controls below 0x20, every byte of 0x80 or above (an
     * ill-formed one becomes the six bytes of an escaped U+FFFD), {@code "}, {@code \\}, {@code <},
     * {@code >} and {@code &}. Pairs that differ in one bit are found with one
     * compare: {@code <} and {@code >} with that bit set are 0x3E, {@code "} and
     * {@code &} are 0x26.
     */
    static long countJsonEscaped(byte[] b, int from, int to) {
        long n = 0;
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            long x = (long) LONGS.get(b, i);
            long control = ~((x & LOW_SEVEN) + FROM_SPACE) & HIGH;
            long angle = matches((x | 0x0202020202020202L) ^ 0x3E3E3E3E3E3E3E3EL);
            long quoteOrAmp = matches((x | 0x0404040404040404L) ^ 0x2626262626262626L);
            long backslash = matches(x ^ 0x5C5C5C5C5C5C5C5CL);
            n += Long.bitCount((x & HIGH) | control | angle | quoteOrAmp | backslash);
        }
        for (; i < to; i++) {
            if (jsonEscaped(b[i])) {
                n++;
            }
        }
        return n;
    }

    /** One byte as {@link #countJsonEscaped} counts it: as a signed byte, 0x80 and above are below 0x20 too. */
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
