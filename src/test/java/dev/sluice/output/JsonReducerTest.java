package dev.sluice.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A JSON document over its cap is reduced least destructive step first, and
 * what is returned after the first two steps is always one valid document
 * (ADR 0031).
 */
class JsonReducerTest {

    private static final String NONCE = "jS0n-d0c-n0n";

    static String listing(int rows) {
        StringBuilder b = new StringBuilder("{\"query\":\"sites\",\"items\":[");
        for (int i = 0; i < rows; i++) {
            b.append(i == 0 ? "" : ",")
                    .append("{\"id\":")
                    .append(i)
                    .append(",\"name\":\"site ")
                    .append(i)
                    .append("\",\"owner\":{\"login\":\"u")
                    .append(i)
                    .append("\",\"bio\":\"")
                    .append("long text ".repeat(8))
                    .append("\"},\"tags\":[\"a\",\"b\"]}");
        }
        return b.append("],\"total\":").append(rows).append("}").toString();
    }

    /** The text capture of a stream that was over its cap, as the runner hands it over. */
    static CapturedOutput overCap(String document) {
        int length = document.getBytes(StandardCharsets.UTF_8).length;
        return new CapturedOutput(
                Utf8Text.of("head\n[... marker ...]\ntail"),
                length,
                new Overflow(length, 27, length - 10, NONCE),
                null);
    }

    private static CapturedOutput reduce(String document, int cap, List<String> project) {
        return JsonReducer.reduce(overCap(document), document.getBytes(StandardCharsets.UTF_8), cap, NONCE, project);
    }

    private static JsonNode parse(CapturedOutput out) {
        JsonNode node = JsonlOutput.parse(out.text().toString());
        assertThat(node).as("the kept output is one JSON document").isNotNull();
        return node;
    }

    @Test
    void aDocumentThatFitsIsReturnedAsItIs() {
        String doc = "{ \"a\" : [1, 2,\n 3] }\n";
        CapturedOutput fits = new CapturedOutput(Utf8Text.of(doc), doc.length(), null, null);
        CapturedOutput out = JsonReducer.reduce(fits, null, 1024, NONCE, List.of());
        assertThat(out.text().toString()).isEqualTo(doc);
        assertThat(out.overflow()).isNull();
        assertThat(out.format()).isEqualTo(FormatOutcome.as(OutputFormat.JSON));
    }

    @Test
    void invalidJsonFallsBackToTextAndSaysSo() {
        String notJson = "{\"a\": 1} trailing words";
        CapturedOutput fits = new CapturedOutput(Utf8Text.of(notJson), notJson.length(), null, null);
        CapturedOutput out = JsonReducer.reduce(fits, null, 1024, NONCE, List.of());
        assertThat(out.text().toString()).isEqualTo(notJson);
        assertThat(out.overflow()).isNull();
        assertThat(out.format().returned()).isEqualTo(OutputFormat.TEXT);
        assertThat(out.format().fallback()).isEqualTo(FormatOutcome.INVALID_JSON);

        String cut = listing(100).substring(0, 3000);
        CapturedOutput over = reduce(cut, 1024, List.of());
        assertThat(over.text()).isEqualTo(overCap(cut).text());
        assertThat(over.overflow().format()).isEqualTo(OutputFormat.TEXT);
        assertThat(over.format().fallback()).isEqualTo(FormatOutcome.INVALID_JSON);
    }

    @Test
    void projectionKeepsEveryRecordAndTheirCountWithOnlyTheNamedFields() {
        String doc = listing(40);
        CapturedOutput out = reduce(doc, 4096, List.of("/id", "/owner/login", "/missing"));

        JsonNode kept = parse(out);
        assertThat(kept.get("items")).hasSize(40);
        assertThat(kept.at("/items/7").toString()).isEqualTo("{\"id\":7,\"owner\":{\"login\":\"u7\"}}");
        assertThat(kept.get("total").asInt()).isEqualTo(40);
        assertThat(out.overflow().reductions())
                .containsExactly(new Overflow.Reduction(Overflow.Reduction.PROJECT, null, 40L, null));
        assertThat(out.overflow().format()).isEqualTo(OutputFormat.JSON);
        assertThat(out.overflow().keptBytes()).isEqualTo(out.text().length()).isLessThanOrEqualTo(4096);
        assertThat(out.format()).isEqualTo(FormatOutcome.as(OutputFormat.JSON));
    }

    @Test
    void elementsAreDroppedFromTheMiddleOfTheLargestArrayForOnePlaceholder() {
        String doc = listing(200);
        CapturedOutput out = reduce(doc, 4096, List.of());

        JsonNode kept = parse(out);
        JsonNode items = kept.get("items");
        int placeholder = -1;
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i).has("sluice.truncated")) {
                placeholder = i;
            }
        }
        assertThat(placeholder).isPositive();
        long dropped = items.get(placeholder).at("/sluice.truncated/dropped").asLong();
        assertThat(items.get(placeholder).at("/sluice.truncated/nonce").asText())
                .isEqualTo(NONCE);
        assertThat(items.size() - 1 + dropped).isEqualTo(200);
        assertThat(items.get(0).get("id").asInt()).isZero();
        assertThat(items.get(items.size() - 1).get("id").asInt()).isEqualTo(199);
        assertThat(kept.get("total").asInt()).isEqualTo(200);
        assertThat(out.overflow().reductions())
                .containsExactly(
                        new Overflow.Reduction(Overflow.Reduction.COMPACT, null, null, null),
                        new Overflow.Reduction(Overflow.Reduction.DROP_ELEMENTS, "/items", 200L, dropped));
    }

    @Test
    void projectionComesFirstThenElementsAreDropped() {
        CapturedOutput out = reduce(listing(2000), 8192, List.of("/id"));
        JsonNode kept = parse(out);
        assertThat(out.overflow().reductions())
                .extracting(Overflow.Reduction::step)
                .containsExactly(Overflow.Reduction.PROJECT, Overflow.Reduction.DROP_ELEMENTS);
        assertThat(kept.at("/items/0").toString()).isEqualTo("{\"id\":0}");
    }

    @Test
    void aDocumentNoReductionMakesFitIsReturnedAsTextWithFormatText() {
        String doc = "{\"only\":\"" + "x".repeat(5000) + "\",\"list\":[1,2,3]}";
        CapturedOutput out = reduce(doc, 1024, List.of());
        assertThat(out.text()).isEqualTo(overCap(doc).text());
        assertThat(out.overflow().format()).isEqualTo(OutputFormat.TEXT);
        assertThat(out.overflow().reductions())
                .containsExactly(new Overflow.Reduction(Overflow.Reduction.TEXT, null, null, null));
        assertThat(out.format().fallback()).isEqualTo(FormatOutcome.OVER_CAP);
    }

    @Test
    void aPrettyPrintedDocumentThatFitsOnceCompactIsOnlyCompacted() {
        String doc = "[\n" + "  {\"a\": 1},\n".repeat(100) + "  {\"a\": 1}\n]";
        CapturedOutput out = reduce(doc, 1024, List.of());
        assertThat(parse(out)).hasSize(101);
        assertThat(out.overflow().reductions())
                .containsExactly(new Overflow.Reduction(Overflow.Reduction.COMPACT, null, null, null));
    }
}
