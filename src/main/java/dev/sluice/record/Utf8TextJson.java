package dev.sluice.record;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.json.UTF8JsonGenerator;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import dev.sluice.output.Utf8Text;

/**
 * Captured output as a JSON string, written from its UTF-8 bytes: the only
 * copy is the escaped one in the JSON itself. Generators that do not write
 * UTF-8 (a Writer, a token buffer) get the text decoded.
 */
final class Utf8TextJson {

    private Utf8TextJson() {}

    static final class Serializer extends StdSerializer<Utf8Text> {

        Serializer() {
            super(Utf8Text.class);
        }

        @Override
        public void serialize(Utf8Text text, JsonGenerator gen, SerializerProvider provider) throws IOException {
            if (gen instanceof UTF8JsonGenerator) {
                gen.writeUTF8String(text.bytes(), 0, text.length());
            } else {
                gen.writeString(text.toString());
            }
        }
    }

    static final class Deserializer extends StdDeserializer<Utf8Text> {

        Deserializer() {
            super(Utf8Text.class);
        }

        @Override
        public Utf8Text deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            return Utf8Text.of(parser.getValueAsString());
        }
    }
}
