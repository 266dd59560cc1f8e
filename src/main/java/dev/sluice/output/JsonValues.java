package dev.sluice.output;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;

/**
 * The JSON reader both structured captures use (ADR 0031). Jackson's default
 * limit on one string (20 MB) would call a valid document with a long string
 * invalid; our own limits (the cap, {@code sluice.output.max-json-document})
 * bound what is read, so strings are not limited again. Nesting keeps
 * Jackson's limit of 1000 levels: a deeper document is treated as not JSON.
 */
final class JsonValues {

    static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE)
                    .build())
            .build();

    private JsonValues() {}

    /** Whether {@code bytes[offset, offset + length)} is exactly one JSON value, whitespace around it allowed. */
    static boolean isOneValue(byte[] bytes, int offset, int length) {
        try (JsonParser parser = FACTORY.createParser(bytes, offset, length)) {
            if (parser.nextToken() == null) {
                return false;
            }
            parser.skipChildren();
            return parser.nextToken() == null;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
