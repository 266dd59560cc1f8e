package dev.sluice.mcp;

/**
 * Sizes of text as a JSON string value in UTF-8, the way Jackson writes it by
 * default (quote, backslash and control characters escaped, the rest as
 * UTF-8), so text can be cut to a byte budget before it is written.
 */
final class EscapedSize {

    private static final int REPLACEMENT_BYTES = 3;

    private EscapedSize() {}

    static int of(String text) {
        int size = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            size += of(cp);
            i += Character.charCount(cp);
        }
        return size;
    }

    static int of(int cp) {
        if (cp == '"' || cp == '\\') {
            return 2;
        }
        if (cp < 0x20) {
            return cp == '\n' || cp == '\r' || cp == '\t' || cp == '\b' || cp == '\f' ? 2 : 6;
        }
        if (cp < 0x80) {
            return 1;
        }
        if (cp < 0x800) {
            return 2;
        }
        return cp < 0x10000 ? 3 : 4;
    }

    /** The end of the longest start of {@code text}, on a character boundary, within {@code room}. */
    static int prefixChars(String text, int room) {
        int size = 0;
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            if (size + of(cp) > room) {
                break;
            }
            size += of(cp);
            i += Character.charCount(cp);
        }
        return i;
    }

    /** The start of the longest end of {@code text}, not before {@code notBefore}, within {@code room}. */
    static int suffixStart(String text, int room, int notBefore) {
        int size = 0;
        int i = text.length();
        while (i > notBefore) {
            int cp = text.codePointBefore(i);
            if (size + of(cp) > room) {
                break;
            }
            size += of(cp);
            i -= Character.charCount(cp);
        }
        return i;
    }

    /**
     * How many of {@code bytes} (UTF-8, perhaps cut anywhere or invalid) fit
     * in {@code room} once decoded and escaped, ending on a character
     * boundary: a sequence cut off by the end of the bytes is left for the
     * next read, unless nothing else is there.
     */
    static int utf8Prefix(byte[] bytes, int room) {
        int size = 0;
        int i = 0;
        while (i < bytes.length) {
            int lead = bytes[i] & 0xff;
            int length = lead < 0x80 ? 1 : lead >= 0xf0 && lead < 0xf8 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
            int cost;
            if (length == 1) {
                cost = lead < 0x80 ? of(lead) : REPLACEMENT_BYTES;
            } else if (i + length > bytes.length) {
                if (i > 0) {
                    break; // cut by the range's end: the next read starts at its first byte
                }
                length = bytes.length - i;
                cost = REPLACEMENT_BYTES * length;
            } else {
                cost = continuations(bytes, i + 1, length - 1) ? length : REPLACEMENT_BYTES * length;
            }
            if (size + cost > room) {
                break;
            }
            size += cost;
            i += length;
        }
        return i;
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
