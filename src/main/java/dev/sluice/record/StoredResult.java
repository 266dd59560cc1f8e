package dev.sluice.record;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import dev.sluice.store.StoredBody;

/**
 * A finished dispatch's {@link DispatchResult} exactly as it was stored: its
 * JSON, in UTF-8. It is what every callback attempt sends, byte for byte
 * (streamed from where the store keeps it), and what the record shows as
 * {@code result}, written into the record's JSON as it is, without being
 * parsed and written again.
 */
@JsonSerialize(using = StoredResult.Json.class)
public final class StoredResult {

    private final StoredBody body;

    /** A result whose JSON is {@code json}, held on the heap. */
    public static StoredResult of(byte[] json) {
        return new StoredResult(StoredBody.of(json));
    }

    public StoredResult(StoredBody body) {
        this.body = body;
    }

    /** Where the store keeps the JSON. */
    StoredBody body() {
        return body;
    }

    /** The JSON's length in bytes. */
    public long size() {
        return body.size();
    }

    /** The JSON as a stream; the caller closes it. */
    public InputStream open() throws IOException {
        return body.open();
    }

    /** The JSON bytes, read whole: read them, never change them. */
    public byte[] json() {
        return body.bytes();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoredResult other && Arrays.equals(json(), other.json());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(json());
    }

    @Override
    public String toString() {
        return new String(json(), StandardCharsets.UTF_8);
    }

    /** Writes the stored JSON in place of the value. */
    static final class Json extends StdSerializer<StoredResult> {

        Json() {
            super(StoredResult.class);
        }

        @Override
        public void serialize(StoredResult result, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeRawValue(new Raw(result.json()));
        }
    }

    /** JSON bytes that are written as they are; only a generator that writes characters decodes them. */
    private record Raw(byte[] utf8) implements SerializableString {

        @Override
        public String getValue() {
            return new String(utf8, StandardCharsets.UTF_8);
        }

        @Override
        public int charLength() {
            return getValue().length();
        }

        @Override
        public char[] asQuotedChars() {
            throw new UnsupportedOperationException("raw JSON is never quoted");
        }

        @Override
        public byte[] asUnquotedUTF8() {
            return utf8;
        }

        @Override
        public byte[] asQuotedUTF8() {
            throw new UnsupportedOperationException("raw JSON is never quoted");
        }

        @Override
        public int appendQuotedUTF8(byte[] buffer, int offset) {
            throw new UnsupportedOperationException("raw JSON is never quoted");
        }

        @Override
        public int appendQuoted(char[] buffer, int offset) {
            throw new UnsupportedOperationException("raw JSON is never quoted");
        }

        @Override
        public int appendUnquotedUTF8(byte[] buffer, int offset) {
            if (offset + utf8.length > buffer.length) {
                return -1;
            }
            System.arraycopy(utf8, 0, buffer, offset, utf8.length);
            return utf8.length;
        }

        @Override
        public int appendUnquoted(char[] buffer, int offset) {
            char[] chars = getValue().toCharArray();
            if (offset + chars.length > buffer.length) {
                return -1;
            }
            System.arraycopy(chars, 0, buffer, offset, chars.length);
            return chars.length;
        }

        @Override
        public int writeQuotedUTF8(java.io.OutputStream out) {
            throw new UnsupportedOperationException("raw JSON is never quoted");
        }

        @Override
        public int writeUnquotedUTF8(java.io.OutputStream out) throws IOException {
            out.write(utf8);
            return utf8.length;
        }

        @Override
        public int putQuotedUTF8(ByteBuffer buffer) {
            throw new UnsupportedOperationException("raw JSON is never quoted");
        }

        @Override
        public int putUnquotedUTF8(ByteBuffer buffer) {
            if (buffer.remaining() < utf8.length) {
                return -1;
            }
            buffer.put(utf8);
            return utf8.length;
        }
    }
}
