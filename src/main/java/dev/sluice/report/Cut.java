package dev.sluice.report;

/**
 * Cuts text to a number of UTF-8 bytes (or of characters) without splitting a
 * character, and marks the cut inside the bound. Lone surrogates, which JSON
 * escapes can carry and UTF-8 cannot, become U+FFFD first.
 */
public final class Cut {

    /** Ends a string of a report that was cut. */
    public static final String MARK = "…[cut]";

    private Cut() {}

    /** {@code text} if it fits in {@code maxBytes} of UTF-8, else its longest start that fits with the mark. */
    public static String toBytes(String text, int maxBytes) {
        String clean = wellFormed(text);
        if (utf8Length(clean) <= maxBytes) {
            return clean;
        }
        return prefixOfBytes(clean, maxBytes - utf8Length(MARK)) + MARK;
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

    static String prefixOfBytes(String text, int maxBytes) {
        int bytes = 0;
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            int size = utf8Length(cp);
            if (bytes + size > maxBytes) {
                break;
            }
            bytes += size;
            i += Character.charCount(cp);
        }
        return text.substring(0, i);
    }

    public static int utf8Length(String text) {
        int bytes = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            bytes += utf8Length(cp);
            i += Character.charCount(cp);
        }
        return bytes;
    }

    private static int utf8Length(int cp) {
        return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
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
}
