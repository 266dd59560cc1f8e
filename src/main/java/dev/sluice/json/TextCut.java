package dev.sluice.json;

import java.util.function.IntUnaryOperator;

/**
 * Cuts text to a number of bytes without splitting a character, and so
 * without splitting the escape that writes one: the start or the end of a
 * string, each character measured as UTF-8 or as escaped JSON
 * ({@link JsonSize}), and the start of UTF-8 bytes as they will be shown. Lone
 * surrogates, which JSON escapes can carry and UTF-8 cannot, become U+FFFD
 * before text is cut with a mark.
 */
public final class TextCut {

    /** What a byte that starts no valid sequence is shown as: U+FFFD. */
    private static final int REPLACEMENT_BYTES = 3;

    private TextCut() {}

    /**
     * {@code text} if it fits in {@code maxBytes} of UTF-8, else its longest
     * start that fits with {@code mark} after it.
     */
    public static String toBytes(String text, int maxBytes, String mark) {
        String clean = wellFormed(text);
        if (JsonSize.utf8(clean) <= maxBytes) {
            return clean;
        }
        return clean.substring(0, prefixEnd(clean, maxBytes - JsonSize.utf8(mark), JsonSize::utf8)) + mark;
    }

    /** {@code text} if it has at most {@code maxChars} characters, else its start ending in {@code mark}. */
    public static String toChars(String text, int maxChars, String mark) {
        String clean = wellFormed(text);
        if (clean.codePointCount(0, clean.length()) <= maxChars) {
            return clean;
        }
        int keep = Math.max(0, maxChars - mark.codePointCount(0, mark.length()));
        return clean.substring(0, clean.offsetByCodePoints(0, keep)) + mark;
    }

    /** The end of the longest start of {@code text} whose characters' {@code size} add up to at most {@code room}. */
    public static int prefixEnd(String text, long room, IntUnaryOperator size) {
        long taken = 0;
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            if (taken + size.applyAsInt(cp) > room) {
                break;
            }
            taken += size.applyAsInt(cp);
            i += Character.charCount(cp);
        }
        return i;
    }

    /** The start of the longest end of {@code text}, not before {@code notBefore}, within {@code room}. */
    public static int suffixStart(String text, long room, int notBefore, IntUnaryOperator size) {
        long taken = 0;
        int i = text.length();
        while (i > notBefore) {
            int cp = text.codePointBefore(i);
            if (taken + size.applyAsInt(cp) > room) {
                break;
            }
            taken += size.applyAsInt(cp);
            i -= Character.charCount(cp);
        }
        return i;
    }

    /**
     * How many of {@code bytes} (UTF-8, perhaps cut anywhere or invalid) fit
     * in {@code room} once decoded and escaped, ending on a character
     * boundary: a sequence cut off by the end of the bytes is left for the
     * next read, unless nothing else is there. Exact for well-formed UTF-8; a
     * sequence of the right shape that a decoder still refuses (overlong, a
     * surrogate) counts as its own length, so for such bytes the caller
     * measures what it wrote.
     */
    public static int utf8Prefix(byte[] bytes, long room) {
        long taken = 0;
        int i = 0;
        while (i < bytes.length) {
            int lead = bytes[i] & 0xff;
            int length = lead < 0x80 ? 1 : lead >= 0xf0 && lead < 0xf8 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
            int cost;
            if (length == 1) {
                cost = lead < 0x80 ? JsonSize.escaped(lead) : REPLACEMENT_BYTES;
            } else if (i + length > bytes.length) {
                if (i > 0) {
                    break; // cut by the range's end: the next read starts at its first byte
                }
                length = bytes.length - i;
                cost = REPLACEMENT_BYTES * length;
            } else {
                cost = continuations(bytes, i + 1, length - 1) ? length : REPLACEMENT_BYTES * length;
            }
            if (taken + cost > room) {
                break;
            }
            taken += cost;
            i += length;
        }
        return i;
    }

    /** The text with every lone surrogate replaced by U+FFFD. */
    public static String wellFormed(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean paired = Character.isHighSurrogate(c)
                    && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1));
            if (paired) {
                if (out != null) {
                    out.append(c).append(text.charAt(i + 1));
                }
                i++;
            } else if (Character.isSurrogate(c)) {
                if (out == null) {
                    out = new StringBuilder(text.length()).append(text, 0, i);
                }
                out.append('\uFFFD');
            } else if (out != null) {
                out.append(c);
            }
        }
        return out == null ? text : out.toString();
    }

    private static boolean continuations(byte[] bytes, int from, int count) {
        for (int j = from; j < from + count; j++) {
            if ((bytes[j] & 0xc0) != 0x80) {
                return false;
            }
        }
        return true;
    }
}
