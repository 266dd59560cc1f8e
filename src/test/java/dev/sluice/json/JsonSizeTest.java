package dev.sluice.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Sizes against the reference that matters: what Jackson writes. */
class JsonSizeTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Property(tries = 1000)
    void theEscapedSizeIsWhatJacksonWritesAsText(@ForAll("texts") String text) throws IOException {
        String clean = TextCut.wellFormed(text);
        byte[] written = JSON.writeValueAsString(clean).getBytes(StandardCharsets.UTF_8);

        assertThat(JsonSize.escaped(clean)).isEqualTo(written.length - 2);
        assertThat(JsonSize.utf8(clean)).isEqualTo(clean.getBytes(StandardCharsets.UTF_8).length);
    }

    @Property(tries = 1000)
    void utf8BytesMeasureAsTheTextTheyEncode(@ForAll("texts") String text) {
        String clean = TextCut.wellFormed(text);
        byte[] utf8 = clean.getBytes(StandardCharsets.UTF_8);

        assertThat(JsonSize.escaped(utf8, 0, utf8.length)).isEqualTo(JsonSize.escaped(clean));
    }

    @Test
    void eachEscapeHasItsSize() {
        assertThat(JsonSize.escaped("\"\\\n\r\t\b\f")).isEqualTo(14);
        assertThat(JsonSize.escaped("\u0001\u001f")).isEqualTo(12);
        assertThat(JsonSize.escaped("a\u007fé€😀")).isEqualTo(1 + 1 + 2 + 3 + 4);
        assertThat(JsonSize.escaped("\uD800"))
                .as("a lone surrogate, as the U+FFFD it is made into")
                .isEqualTo(3);
    }

    /** Why a budget measures what it wrote: a byte generator escapes each half of a pair. */
    @Test
    void aByteGeneratorWritesACharacterOutsideTheBmpAsTwelveBytes() {
        long written = JsonSize.written(out -> {
            try (JsonGenerator gen = new JsonFactory().createGenerator(out)) {
                gen.writeString("😀");
            }
        });

        assertThat(written).isEqualTo(2 + 12);
        assertThat(JsonSize.escaped("😀")).isEqualTo(4);
    }

    @Test
    void writtenCountsEveryByteWritten() throws IOException {
        ByteArrayOutputStream held = new ByteArrayOutputStream();
        JsonSize.Writing writing = out -> {
            out.write('{');
            out.write("\"a\":1".getBytes(StandardCharsets.UTF_8), 1, 4);
            out.write('}');
        };

        writing.to(held);

        assertThat(JsonSize.written(writing)).isEqualTo(held.size()).isEqualTo(6);
    }

    @Provide
    Arbitrary<String> texts() {
        return HostileText.upTo(300);
    }
}
