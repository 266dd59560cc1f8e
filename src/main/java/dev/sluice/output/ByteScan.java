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
