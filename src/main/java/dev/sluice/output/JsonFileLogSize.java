package dev.sluice.output;

/**
 * An upper bound of the bytes the runtime's {@code json-file} log driver
 * writes for one stream, counted while it streams (ADR 0036), so the worker
 * can tell a log that cannot have rotated without reading it back.
 *
 * <p>The driver writes one record per message,
 * {@code {"log":"<text>","stream":"stdout","time":"<RFC 3339, nanoseconds>"}}
 * and a newline. Its copier (Engine 20.10, {@code daemon/logger/copier.go})
 * ends a message at each newline, which the text keeps, escaped as two bytes;
 * after 16 KiB of a line without one; and at the end of the stream. So there
 * are at most {@code newlines + bytes / 16 KiB + 1} messages. Escaping makes a
 * byte at most six (a control byte as a backslash-u escape, an ill-formed
 * byte as an escaped U+FFFD, U+2028 as an escape of six for its three bytes); only the
 * bytes {@link ByteScan#jsonEscaped(long)} finds can grow at all.
 *
 * <p>The first {@link #UNEXAMINED_PREFIX} bytes of a stream are charged as if
 * every one of them grew by the most, and only their newlines are counted
 * (ADR 0037): the bound is consulted only for a dispatch that wrote more than
 * the rotation budget's worst case allows (26.7 MiB with the defaults), and
 * then the charge is at most 20 MiB a stream against the budget's 1.9 GiB, while
 * most streams end well inside the prefix and so skip the escape count.
 */
final class JsonFileLogSize {

    // A record around empty text: `{"log":"` (8), `","stream":"stdout","time":"` (28), the longest
    // timestamp, `2026-11-23T21:42:17.516484408Z` (30), the closing quote and brace (2) and the newline (1).
    static final int RECORD_FRAME = 8 + 28 + 30 + 2 + 1;

    /** The copier's buffer: a line without a newline is cut into messages of this many bytes. */
    static final int MESSAGE_BYTES = 16 << 10;

    /** Bytes an escape adds at most to the one byte it replaces. */
    private static final int MAX_GROWTH = 5;

    /** The start of a stream charged at its worst rather than examined for escapes. */
    static final long UNEXAMINED_PREFIX = 4 << 20;

    /** Where examining for escapes begins: a chunk that starts before it is charged at its worst. */
    private final long examineFrom;

    private long bytes;
    private long escaped;
    private long newlines;

    JsonFileLogSize() {
        this(UNEXAMINED_PREFIX);
    }

    JsonFileLogSize(long examineFrom) {
        this.examineFrom = examineFrom;
    }

    /**
     * Counts one chunk, as written (before any masking: the runtime logs what
     * the process wrote), in one pass of eight bytes a step, and returns its
     * newlines, exactly, so the stream's digest need not look for them again.
     * The count of bytes to escape may take in a few too many, which only
     * loosens the bound.
     */
    long update(byte[] chunk, int offset, int count) {
        return bytes < examineFrom ? charge(chunk, offset, count) : examine(chunk, offset, count);
    }

    /** Counts a chunk past the prefix: its newlines, and the bytes JSON may escape. */
    private long examine(byte[] chunk, int offset, int count) {
        bytes += count;
        int end = offset + count;
        int i = offset;
        long e = 0;
        long n = 0;
        for (; i + Long.BYTES <= end; i += Long.BYTES) {
            long x = ByteScan.word(chunk, i);
            long escapes = ByteScan.jsonEscaped(x);
            long breaks = ByteScan.equal(x, (byte) '\n');
            // Most words of most output hold neither; the JIT the worker ships
            // (C1) has no intrinsic for bitCount, so it is counted only here.
            if ((escapes | breaks) != 0) {
                e += Long.bitCount(escapes);
                n += Long.bitCount(breaks);
            }
        }
        for (; i < end; i++) {
            e += ByteScan.jsonEscaped(chunk[i]) ? 1 : 0;
            n += chunk[i] == '\n' ? 1 : 0;
        }
        escaped += e;
        newlines += n;
        return n;
    }

    /** Counts a chunk of the unexamined prefix: its newlines, and every byte as escaped. */
    private long charge(byte[] chunk, int offset, int count) {
        long n = ByteScan.count(chunk, offset, offset + count, (byte) '\n');
        bytes += count;
        escaped += count;
        newlines += n;
        return n;
    }

    /** The most bytes of records the stream so far can take in the log; a newline grows by one only. */
    long bound() {
        if (bytes == 0) {
            return 0;
        }
        long messages = newlines + bytes / MESSAGE_BYTES + 1;
        return bytes + MAX_GROWTH * (escaped - newlines) + newlines + messages * RECORD_FRAME;
    }
}
