package dev.sluice.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The streaming projection gives what projecting a tree of the element gives
 * (the reference below, which is how projection worked before it streamed),
 * byte for byte unless a kept value repeats a key: for objects with repeated
 * keys, nested and overlapping pointers, pointers into scalars and arrays,
 * and pointers in any order.
 */
class ProjectionPropertyTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Property(tries = 400)
    void streamingGivesWhatATreeGives(@ForAll("elements") String element, @ForAll("pointers") List<String> pointers)
            throws Exception {
        List<JsonPointer> compiled = pointers.stream().map(JsonPointer::compile).toList();
        String expected = MAPPER.writeValueAsString(reference(MAPPER.readTree(element), compiled));

        String streamed = streamed(element, compiled);
        assertThat(MAPPER.readTree(streamed)).isEqualTo(MAPPER.readTree(expected));
        if (!repeatsAKey(element)) {
            assertThat(streamed).isEqualTo(expected);
        }
    }

    /**
     * A value kept whole is copied as it was written, repeated keys inside it
     * included, where a tree holds only the last: the bytes then differ, the
     * meaning a reader takes (last wins) does not.
     */
    private static boolean repeatsAKey(String element) {
        try (JsonParser strict =
                MAPPER.getFactory().createParser(element).enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)) {
            while (strict.nextToken() != null) {}
            return false;
        } catch (java.io.IOException e) {
            return true;
        }
    }

    static String streamed(String element, List<JsonPointer> pointers) throws Exception {
        byte[] document = element.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonParser parser = JsonValues.FACTORY.createParser(document);
                JsonGenerator generator = JsonValues.FACTORY.createGenerator(out)) {
            parser.nextToken();
            new Projection(pointers).write(document, parser, generator);
            assertThat(parser.nextToken())
                    .as("the parser is left at the element's end")
                    .isNull();
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Projection of a tree of the element: the fields the pointers name, at the same places. */
    static ObjectNode reference(JsonNode record, List<JsonPointer> pointers) {
        ObjectNode kept = MAPPER.createObjectNode();
        for (JsonPointer pointer : pointers) {
            JsonNode value = record;
            for (JsonPointer p = pointer; !p.matches() && value != null; p = p.tail()) {
                value = value.isObject() ? value.get(p.getMatchingProperty()) : null;
            }
            if (value == null || pointer.matches()) {
                continue;
            }
            ObjectNode into = kept;
            JsonPointer p = pointer;
            for (; !p.tail().matches(); p = p.tail()) {
                JsonNode next = into.get(p.getMatchingProperty());
                into = next instanceof ObjectNode o ? o : into.putObject(p.getMatchingProperty());
            }
            into.set(p.getMatchingProperty(), value);
        }
        return kept;
    }

    private static final List<String> NAMES = List.of("a", "b", "c", "0", "a/b", "");

    @Provide
    Arbitrary<List<String>> pointers() {
        Arbitrary<String> step =
                Arbitraries.of(NAMES).map(n -> n.replace("~", "~0").replace("/", "~1"));
        Arbitrary<String> pointer = step.list().ofMaxSize(4).map(s -> s.isEmpty() ? "" : "/" + String.join("/", s));
        return pointer.list().ofMaxSize(6);
    }

    /** Objects written by hand so keys can repeat, with values of every kind, nested a few levels. */
    @Provide
    Arbitrary<String> elements() {
        return object(3);
    }

    private static Arbitrary<String> object(int depth) {
        Arbitrary<String> key = Arbitraries.of(NAMES).map(n -> "\"" + n + "\"");
        Arbitrary<String> field = Combinators.combine(key, value(depth), Arbitraries.of("", " ", "\n  "))
                .as((k, v, ws) -> ws + k + ws + ":" + ws + v);
        return field.list().ofMaxSize(6).map(f -> "{" + String.join(",", f) + "}");
    }

    private static Arbitrary<String> value(int depth) {
        Arbitrary<String> scalar = Arbitraries.oneOf(
                Arbitraries.integers().between(-1000, 100000).map(String::valueOf),
                Arbitraries.strings()
                        .withChars("xy \u00e9\u20ac\"\\/\t")
                        .ofMaxLength(8)
                        .map(ProjectionPropertyTest::quoted),
                Arbitraries.of("true", "false", "null"));
        if (depth == 0) {
            return scalar;
        }
        Arbitrary<String> array =
                Arbitraries.lazy(() -> value(depth - 1)).list().ofMaxSize(3).map(l -> "[" + String.join(",", l) + "]");
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, scalar),
                net.jqwik.api.Tuple.of(1, array),
                net.jqwik.api.Tuple.of(3, Arbitraries.lazy(() -> object(depth - 1))));
    }

    private static String quoted(String s) {
        try {
            return MAPPER.writeValueAsString(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
