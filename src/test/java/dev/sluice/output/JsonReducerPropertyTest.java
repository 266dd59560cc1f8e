package dev.sluice.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * JSON at every cut: each document of a set, reduced at every cap from far too
 * small to large enough, is either one valid document within the cap that is
 * the original with elements dropped from one array for a placeholder that
 * counts them, or the text capture, said to be text. Checked against Jackson's
 * tree model of the original.
 */
class JsonReducerPropertyTest {

    private static final String NONCE = "pr0p-js0n-n0";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Property(tries = 60)
    void everyCapGivesValidJsonWithinItWhoseCountsAddUp(@ForAll("documents") String document) throws Exception {
        JsonNode original = MAPPER.readTree(document);
        int compact = MAPPER.writeValueAsBytes(original).length;
        for (int cap = 16; cap <= compact + 16; cap += Math.max(1, compact / 150)) {
            check(document, original, cap);
        }
    }

    private static void check(String document, JsonNode original, int cap) throws Exception {
        byte[] bytes = document.getBytes(StandardCharsets.UTF_8);
        CapturedOutput out = JsonReducer.reduce(JsonReducerTest.overCap(document), bytes, cap, NONCE, List.of());
        Overflow o = out.overflow();
        if (out.format().returned() == OutputFormat.TEXT) {
            assertThat(out.format().fallback()).isEqualTo(FormatOutcome.OVER_CAP);
            assertThat(o.format()).isEqualTo(OutputFormat.TEXT);
            int outside = MAPPER.writeValueAsBytes(original).length - largestInner(original);
            assertThat(cap).as("only when no array could be cut enough").isLessThan(outside + 80);
            return;
        }
        assertThat(out.text().length()).isEqualTo((int) o.keptBytes()).isLessThanOrEqualTo(cap);
        JsonNode kept = JsonlOutput.parse(out.text().toString());
        assertThat(kept).as("valid JSON at cap %d", cap).isNotNull();
        assertThat(o.reductions().get(0).step()).isEqualTo(Overflow.Reduction.COMPACT);
        if (o.reductions().size() == 1) {
            assertThat(kept).isEqualTo(original);
            return;
        }
        Overflow.Reduction drop = o.reductions().get(1);
        assertThat(drop.step()).isEqualTo(Overflow.Reduction.DROP_ELEMENTS);
        ArrayNode before = (ArrayNode) original.at(drop.array());
        ArrayNode after = (ArrayNode) kept.at(drop.array());
        assertThat(drop.elements()).isEqualTo(before.size());
        List<Integer> placeholders = new ArrayList<>();
        for (int i = 0; i < after.size(); i++) {
            if (NONCE.equals(after.get(i).at("/sluice.truncated/nonce").asText(null))) {
                placeholders.add(i);
            }
        }
        assertThat(placeholders).hasSize(1);
        int at = placeholders.get(0);
        assertThat(after.get(at).at("/sluice.truncated/dropped").asLong()).isEqualTo(drop.dropped());
        assertThat(after.size() - 1 + drop.dropped()).isEqualTo(before.size());
        int tail = after.size() - at - 1;
        for (int i = 0; i < at; i++) {
            assertThat(after.get(i)).isEqualTo(before.get(i));
        }
        for (int i = 0; i < tail; i++) {
            assertThat(after.get(at + 1 + i)).isEqualTo(before.get(before.size() - tail + i));
        }
        // Everything outside the cut array is as it was.
        JsonNode restored = kept.deepCopy();
        if (drop.array().isEmpty()) {
            restored = before;
        } else {
            JsonNode parent = restored.at(drop.array().substring(0, drop.array().lastIndexOf('/')));
            String last = drop.array().substring(drop.array().lastIndexOf('/') + 1);
            if (parent instanceof ObjectNode p) {
                p.set(last.replace("~1", "/").replace("~0", "~"), before);
            } else {
                ((ArrayNode) parent).set(Integer.parseInt(last), before);
            }
        }
        assertThat(restored).isEqualTo(original);
    }

    /** Compact bytes inside the brackets of the document's largest array. */
    private static int largestInner(JsonNode node) throws Exception {
        int largest = 0;
        if (node.isArray()) {
            largest = MAPPER.writeValueAsBytes(node).length - 2;
        }
        for (JsonNode child : node) {
            largest = Math.max(largest, largestInner(child));
        }
        return largest;
    }

    @Provide
    Arbitrary<String> documents() {
        Arbitrary<String> text =
                Arbitraries.strings().withChars("ab \u00e9\u20ac\"\\/\n").ofMaxLength(40);
        Arbitrary<ObjectNode> record = net.jqwik.api.Combinators.combine(
                        Arbitraries.integers().between(0, 99999),
                        text,
                        text.list().ofMaxSize(4))
                .as((id, name, tags) -> {
                    ObjectNode r = MAPPER.createObjectNode();
                    r.put("id", id);
                    r.put("name", name);
                    ArrayNode t = r.putArray("tags");
                    tags.forEach(t::add);
                    r.putObject("owner").put("login", name);
                    return r;
                });
        Arbitrary<ArrayNode> rows = record.list().ofMaxSize(60).map(l -> {
            ArrayNode a = MAPPER.createArrayNode();
            l.forEach(a::add);
            return a;
        });
        Arbitrary<JsonNode> wrapped = net.jqwik.api.Combinators.combine(rows, rows, text)
                .as((items, other, q) -> {
                    ObjectNode d = MAPPER.createObjectNode();
                    d.put("query", q);
                    d.set("items", items);
                    d.putObject("meta").set("other/rows", other);
                    d.put("total", items.size());
                    return d;
                });
        Arbitrary<JsonNode> doc = Arbitraries.oneOf(rows.map(a -> a), wrapped);
        return net.jqwik.api.Combinators.combine(doc, Arbitraries.of(true, false))
                .as((d, pretty) -> {
                    try {
                        return pretty ? MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(d) : d.toString();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
    }
}
