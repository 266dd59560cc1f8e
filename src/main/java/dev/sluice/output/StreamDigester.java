package dev.sluice.output;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Takes the {@link StreamDigest} of a whole stream while it is written, so a
 * consumer can check a log read back later against what the worker saw (ADR
 * 0025). It holds nothing of the stream but the hash's state, except for a
 * dispatch with secrets: then it digests the stream as the logs endpoint
 * serves it, masked, and holds back the last {@link SecretMasker#margin()}
 * bytes, which a secret may still continue from, until the next chunk or the
 * end shows whether it does.
 */
final class StreamDigester {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;
    private static final long LOW_SEVEN = 0x7F7F7F7F7F7F7F7FL;

    private final MessageDigest sha256;
    private final SecretMasker masker;
    private long bytes;
    private long lines;

    /** With secrets only: bytes not digested yet, as written, and which of them a secret was found in. */
    private byte[] pending = new byte[0];

    private boolean[] found = new boolean[0];
    private int held;

    StreamDigester(SecretMasker masker) {
        this.masker = masker;
        try {
            this.sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    void update(byte[] chunk, int offset, int count) {
        bytes += count;
        if (masker.isEmpty()) {
            digest(chunk, offset, count);
        } else {
            digestMasked(chunk, offset, count);
        }
    }

    StreamDigest finish() {
        SecretMasker.cover(pending, 0, held, found);
        digest(pending, 0, held);
        held = 0;
        return new StreamDigest(HexFormat.of().formatHex(sha256.digest()), bytes, lines);
    }

    private void digest(byte[] b, int offset, int count) {
        sha256.update(b, offset, count);
        lines += newlines(b, offset, offset + count);
    }

    /**
     * Finds secrets in what was held back and the new chunk together, then
     * digests all but the last {@code margin} bytes: a secret found later can
     * only start among those. A secret that started before them was wholly
     * inside an earlier round, and its marks are kept with the bytes held.
     */
    private void digestMasked(byte[] chunk, int offset, int count) {
        int length = held + count;
        if (pending.length < length) {
            pending = Arrays.copyOf(pending, length);
            found = Arrays.copyOf(found, length);
        }
        System.arraycopy(chunk, offset, pending, held, count);
        Arrays.fill(found, held, length, false);
        masker.markOccurrences(pending, 0, length, found);
        int ready = Math.max(0, length - masker.margin());
        SecretMasker.cover(pending, 0, ready, found);
        digest(pending, 0, ready);
        held = length - ready;
        System.arraycopy(pending, ready, pending, 0, held);
        System.arraycopy(found, ready, found, 0, held);
    }

    /** The newline bytes in {@code b[from, to)}, eight at a time. */
    static long newlines(byte[] b, int from, int to) {
        long n = 0;
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            // A byte of x is zero exactly where b held a newline; set each zero byte's top bit, and count them.
            long x = (long) LONGS.get(b, i) ^ NEWLINES;
            n += Long.bitCount(~(((x & LOW_SEVEN) + LOW_SEVEN) | x | LOW_SEVEN));
        }
        for (; i < to; i++) {
            if (b[i] == '\n') {
                n++;
            }
        }
        return n;
    }
}
