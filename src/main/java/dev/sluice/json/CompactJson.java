package dev.sluice.json;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.LongFunction;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

/**
 * Compact JSON objects written field by field, in UTF-8: no spacing, the
 * fields in the order written, so the bytes a budget counts are exactly the
 * bytes that are sent.
 */
public final class CompactJson {

    private static final JsonFactory JSON = new JsonFactory();

    private CompactJson() {}

    /** Writes an object's fields, between its braces. */
    @FunctionalInterface
    public interface Fields {
        void write(JsonGenerator gen) throws IOException;
    }

    public static byte[] object(Fields fields) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try (JsonGenerator gen = JSON.createGenerator(out)) {
            gen.writeStartObject();
            fields.write(gen);
            gen.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // writing to memory
        }
        return out.toByteArray();
    }

    /**
     * A body that states a count of bytes including its own length
     * ({@code before} plus itself): its length depends on the digits of that
     * count, so it is written again until the length it states is its own
     * (twice, at most three times).
     */
    public static byte[] countingItself(long before, LongFunction<byte[]> body) {
        byte[] written = body.apply(before);
        while (true) {
            byte[] again = body.apply(before + written.length);
            if (again.length == written.length) {
                return again;
            }
            written = again;
        }
    }
}
