package dev.sluice.output;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Text held as its UTF-8 bytes, which are always well-formed: captured output
 * travels from the collector to the stored result and the callback body in
 * this form, written once and never turned into a {@link String} on the way.
 * The bytes are not copied in or out; whoever makes one gives up the array.
 */
public final class Utf8Text {

    public static final Utf8Text EMPTY = new Utf8Text(new byte[0]);

    private final byte[] bytes;

    private Utf8Text(byte[] bytes) {
        this.bytes = bytes;
    }

    /** Takes bytes the caller knows to be well-formed UTF-8. */
    static Utf8Text wrap(byte[] wellFormed) {
        return new Utf8Text(wellFormed);
    }

    /** The text of a Java string (lone surrogates become U+FFFD, as {@link String#getBytes} does). */
    public static Utf8Text of(String text) {
        return new Utf8Text(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The UTF-8 bytes: read them, never change them. */
    public byte[] bytes() {
        return bytes;
    }

    /** The UTF-8 length, the number caps and counts are in. */
    public int length() {
        return bytes.length;
    }

    public boolean isEmpty() {
        return bytes.length == 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Utf8Text other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    /** The text, decoded. */
    @Override
    public String toString() {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
