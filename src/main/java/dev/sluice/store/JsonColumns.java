package dev.sluice.store;

import java.io.IOException;
import java.io.OutputStream;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Values the store keeps as JSON text (a dispatch's spec, metadata, result):
 * written and read whole, with the application's mapper so times and durations
 * read back as they were written.
 */
public final class JsonColumns {

    private final ObjectMapper json;

    public JsonColumns(ObjectMapper json) {
        this.json = json;
    }

    public String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new StoreException("encode " + value.getClass().getSimpleName(), e);
        }
    }

    /** Writes the value's JSON, in UTF-8, into {@code out}, which it leaves open. */
    public void write(Object value, OutputStream out) throws IOException {
        json.writer().without(JsonGenerator.Feature.AUTO_CLOSE_TARGET).writeValue(out, value);
    }

    /** {@code null} for SQL NULL. */
    public <T> T read(byte[] utf8, Class<T> type) {
        if (utf8 == null) {
            return null;
        }
        try {
            return json.readValue(utf8, type);
        } catch (java.io.IOException e) {
            throw new StoreException("decode " + type.getSimpleName(), e);
        }
    }

    /** {@code null} for SQL NULL. */
    public <T> T read(String text, Class<T> type) {
        if (text == null) {
            return null;
        }
        try {
            return json.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new StoreException("decode " + type.getSimpleName(), e);
        }
    }

    /** {@code null} for SQL NULL. */
    public <T> T read(String text, TypeReference<T> type) {
        if (text == null) {
            return null;
        }
        try {
            return json.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new StoreException("decode stored JSON", e);
        }
    }
}
