package dev.sluice.output;

/**
 * Strict UTF-8 decoding with the "maximal subpart" replacement practice of the
 * Unicode standard (chapter 3, "U+FFFD substitution"): each ill-formed piece
 * becomes exactly one U+FFFD. We decode ourselves rather than through
 * {@link java.nio.charset.CharsetDecoder} because the collector must know, unit
 * by unit, how many bytes it consumed and how many it will emit, to cut within a
 * byte budget without splitting a sequence.
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
     * Decodes {@code b[from, to)}, which must start on a unit boundary and hold
     * only whole units (an unfinished sequence at {@code to} is ill-formed), and
     * returns the UTF-8 length of what it appended.
     */
    static long decode(byte[] b, int from, int to, StringBuilder out) {
        long decoded = 0;
        int pos = from;
        while (pos < to) {
            int n = finalUnit(b, pos, to);
            if (n < 0) {
                out.append('\uFFFD');
                pos -= n;
            } else {
                appendCodePoint(b, pos, n, out);
                pos += n;
            }
            decoded += decodedLength(n);
        }
        return decoded;
    }

    private static void appendCodePoint(byte[] b, int pos, int n, StringBuilder out) {
        int b0 = b[pos] & 0xFF;
        switch (n) {
            case 1 -> out.append((char) b0);
            case 2 -> out.append((char) (((b0 & 0x1F) << 6) | (b[pos + 1] & 0x3F)));
            case 3 -> out.append((char) (((b0 & 0x0F) << 12) | ((b[pos + 1] & 0x3F) << 6) | (b[pos + 2] & 0x3F)));
            default ->
                out.appendCodePoint(((b0 & 0x07) << 18)
                        | ((b[pos + 1] & 0x3F) << 12)
                        | ((b[pos + 2] & 0x3F) << 6)
                        | (b[pos + 3] & 0x3F));
        }
    }
}
