package dev.sluice.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class CompactJsonTest {

    @Test
    void anObjectIsItsFieldsInOrderWithoutSpacing() {
        byte[] json = CompactJson.object(gen -> {
            gen.writeStringField("b", "x\"y");
            gen.writeNumberField("a", 1);
            gen.writeNullField("c");
        });

        assertThat(new String(json, StandardCharsets.UTF_8)).isEqualTo("{\"b\":\"x\\\"y\",\"a\":1,\"c\":null}");
    }

    /** Across the digits' steps (9 to 10, 99 to 100...), the count a body states includes the body. */
    @Property(tries = 500)
    void aBodyCountingItselfStatesItsOwnLength(
            @ForAll @LongRange(max = 1_000_000_000_000L) long before, @ForAll @IntRange(max = 200) int padding)
            throws Exception {
        byte[] body = CompactJson.countingItself(
                before,
                spent -> CompactJson.object(gen -> {
                    gen.writeStringField("pad", "p".repeat(padding));
                    gen.writeNumberField("spentBytes", spent);
                }));

        long stated = new ObjectMapper().readTree(body).path("spentBytes").asLong();
        assertThat(stated).isEqualTo(before + body.length);
    }
}
