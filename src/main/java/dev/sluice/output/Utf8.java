package dev.sluice.output;

/**
 * Strict UTF-8 with the "maximal subpart" replacement practice of the Unicode
 * standard (chapter 3, "U+FFFD substitution"): each ill-formed piece becomes
 * exactly one U+FFFD. We do this ourselves rather than through
 * {@link java.nio.charset.CharsetDecoder} because the collector must know, unit
 * by unit, how many bytes it consumed and how many it will emit, to cut within a
 * byte budget without splitting a sequence; and because its output stays UTF-8
 * bytes, never a {@link String}.
 */
final class Utf8 {

    /** UTF-8 length of U+FFFD, what every ill-formed piece becomes. */
    static final int REPLACEMENT_LENGTH = 3;

    /** {@link #unit} result for a well-formed sequence that the buffer ends in the middle of. */
    static final int INCOMPLETE = 0;

    private Utf8() {}

    static boolean isContinuation(byte b) {
        return (b & 0xC0) == 0x80;
    }

    /**
     * Measures the unit starting at {@code pos}: {@code n > 0} for a well-formed
     * sequence of n bytes, {@code -n} for an ill-formed piece of n bytes that
     * decodes to one U+FFFD, and {@link #INCOMPLETE} when the bytes up to
     * {@code end} are a valid but unfinished sequence (more bytes could complete it).
     */
    static int unit(byte[] b, int pos, int end) {
        int b0 = b[pos] & 0xFF;
        if (b0 < 0x80) {
            return 1;
        }
        int length;
        int lower = 0x80;
        int upper = 0xBF;
        if (b0 >= 0xC2 && b0 <= 0xDF) {
            length = 2;
        } else if (b0 >= 0xE0 && b0 <= 0xEF) {
            length = 3;
            if (b0 == 0xE0) {
                lower = 0xA0; // no overlong forms
            } else if (b0 == 0xED) {
                upper = 0x9F; // no surrogates
            }
        } else if (b0 >= 0xF0 && b0 <= 0xF4) {
            length = 4;
            if (b0 == 0xF0) {
                lower = 0x90; // no overlong forms
            } else if (b0 == 0xF4) {
                upper = 0x8F; // nothing above U+10FFFF
            }
        } else {
            return -1; // stray continuation byte, C0, C1 or F5..FF
        }
        for (int i = 1; i < length; i++) {
            if (pos + i >= end) {
                return INCOMPLETE;
            }
            int bi = b[pos + i] & 0xFF;
            if (bi < lower || bi > upper) {
                return -i;
            }
            lower = 0x80;
            upper = 0xBF;
        }
        return length;
    }

    /**
     * Like {@link #unit}, for bytes that are known to be the end of the stream:
     * an unfinished sequence there is ill-formed.
     */
    static int finalUnit(byte[] b, int pos, int end) {
        int n = unit(b, pos, end);
        return n == INCOMPLETE ? -(end - pos) : n;
    }

    /** UTF-8 length of what a unit decodes to. */
    static int decodedLength(int unit) {
        return unit > 0 ? unit : REPLACEMENT_LENGTH;
    }

    /**
     * UTF-8 length of {@code b[from, to)} once each ill-formed piece is
     * replaced by U+FFFD. The range must start on a unit boundary and hold
     * only whole units (an unfinished sequence at {@code to} is ill-formed).
     */
    static long sanitizedLength(byte[] b, int from, int to) {
        long length = 0;
        int pos = from;
        while (pos < to) {
            int n = finalUnit(b, pos, to);
            length += decodedLength(n);
            pos += Math.abs(n);
        }
        return length;
    }

    /** Whether {@code b[from, to)} is well-formed UTF-8 through to its end. */
    static boolean isWellFormed(byte[] b, int from, int to) {
        int pos = from;
        while (pos < to) {
            if (b[pos] >= 0) {
                pos++;
                continue;
            }
            int n = finalUnit(b, pos, to);
            if (n < 0) {
                return false;
            }
            pos += n;
        }
        return true;
    }

    /**
     * Writes {@code b[from, to)} into {@code out} at {@code at} with each
     * ill-formed piece replaced by U+FFFD, as {@link #sanitizedLength}
     * measures it, and returns where the next byte goes. Runs of well-formed
     * bytes are copied whole.
     */
    static int sanitize(byte[] b, int from, int to, byte[] out, int at) {
        int pos = from;
        int runStart = from;
        while (pos < to) {
            if (b[pos] >= 0) {
                pos++; // ASCII, the common case: extend the run
                continue;
            }
            int n = finalUnit(b, pos, to);
            if (n > 0) {
                pos += n;
                continue;
            }
            System.arraycopy(b, runStart, out, at, pos - runStart);
            at += pos - runStart;
            out[at++] = (byte) 0xEF;
            out[at++] = (byte) 0xBF;
            out[at++] = (byte) 0xBD;
            pos -= n;
            runStart = pos;
        }
        System.arraycopy(b, runStart, out, at, pos - runStart);
        return at + pos - runStart;
    }
}
