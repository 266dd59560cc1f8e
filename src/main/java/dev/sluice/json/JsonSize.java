package dev.sluice.json;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.function.IntUnaryOperator;

/**
 * Sizes of text as the content of a JSON string in UTF-8, escaped the way
 * Jackson escapes by default: quote and backslash, and control characters
 * (the short forms {@code \n \r \t \b \f}, {@code \}{@code u00XX} for the
 * others), the rest as its UTF-8 bytes. This is exact for JSON written as
 * text and then encoded; a generator that writes bytes escapes each half of a
 * character outside the BMP, 12 bytes where this counts 4. So a size from here
 * is where a cut starts, and the body is then measured as written
 * ({@link #written}) before it is trusted to fit.
 */
public final class JsonSize {

    private JsonSize() {}

    /** What writes a body, so its bytes can be counted without holding them. */
    @FunctionalInterface
    public interface Writing {
        void to(OutputStream out) throws IOException;
    }

    /** The bytes {@code writing} writes, counted as they go, never held. */
    public static long written(Writing writing) {
        Counter counter = new Counter();
        try {
            writing.to(counter);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // the counter never fails: only the writing can
        }
        return counter.count;
    }

    /** Bytes the code point takes inside a JSON string. */
    public static int escaped(int cp) {
        if (cp == '"' || cp == '\\') {
            return 2;
        }
        if (cp < 0x20) {
            return cp == '\n' || cp == '\r' || cp == '\t' || cp == '\b' || cp == '\f' ? 2 : 6;
        }
        return utf8(cp);
    }

    /** Bytes the text takes inside a JSON string, quotes left out. */
    public static int escaped(String text) {
        return sum(text, JsonSize::escaped);
    }

    /**
     * Bytes that UTF-8 {@code text[from, to)} takes inside a JSON string:
     * each ASCII byte as escaped, each byte of a longer sequence as itself.
     */
    public static long escaped(byte[] text, int from, int to) {
        long size = 0;
        for (int i = from; i < to; i++) {
            int b = text[i] & 0xFF;
            size += b < 0x80 ? escaped(b) : 1;
        }
        return size;
    }

    /** The code point's UTF-8 length; a lone surrogate counts as the U+FFFD it is made into. */
    public static int utf8(int cp) {
        if (cp < 0x80) {
            return 1;
        }
        if (cp < 0x800) {
            return 2;
        }
        return cp < 0x10000 ? 3 : 4;
    }

    /** The text's UTF-8 length. */
    public static int utf8(String text) {
        return sum(text, JsonSize::utf8);
    }

    private static int sum(String text, IntUnaryOperator size) {
        int sum = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            sum += size.applyAsInt(cp);
            i += Character.charCount(cp);
        }
        return sum;
    }

    private static final class Counter extends OutputStream {
        long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
        }
    }
}
