package dev.sluice.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import dev.sluice.actions.DispatchListView;
import dev.sluice.io.LogRange;
import dev.sluice.record.Dispatch;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/**
 * Whatever the output holds (quotes, control characters, multi-byte and
 * invalid UTF-8), an answer is never over the budget, is JSON, shows the
 * report before the output, and names what it left out; a log range shown
 * in part reads on exactly where it stopped.
 */
class AnswerBudgetTest {

    private static final ObjectMapper JSON = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    private static final byte[] DIGEST = "{\"id\":\"p\",\"status\":\"succeeded\"}".getBytes(StandardCharsets.UTF_8);

    @Property(tries = 300)
    void aResultIsWithinTheBudgetReportFirst(
            @ForAll("texts") String stdout,
            @ForAll("texts") String stderr,
            @ForAll @IntRange(min = 1024, max = 8192) int max)
            throws IOException {
        AnswerBudget budget = new AnswerBudget(max, JSON);
        ObjectNode result = JSON.createObjectNode();
        result.put("dispatchId", "p").put("status", "succeeded").put("exitCode", 0);
        result.put("stdout", stdout).put("stderr", stderr);
        result.put("reportStatus", "present");
        result.putObject("report").put("summary", "s").put("confidence", "high");

        String answer = budget.result(JSON.writeValueAsBytes(result), DIGEST);

        assertThat(answer.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(max);
        JsonNode answered = JSON.readTree(answer);
        JsonNode shown = answered.path(AgentText.FIELD);
        List<String> keys = new ArrayList<>();
        shown.fieldNames().forEachRemaining(keys::add);
        assertThat(keys).containsExactly("begin", "/report", "/stdout", "/stderr", "end");
        assertThat(answered.has("report") || answered.has("stdout") || answered.has("stderr"))
                .isFalse();
        for (String stream : List.of("stdout", "stderr")) {
            String whole = result.path(stream).asText();
            String text = shown.path("/" + stream).asText();
            if (text.equals(whole)) {
                assertThat(answered.path("omitted").toString()).doesNotContain(stream + ":");
            } else {
                assertThat(text).contains("bytes left out here]");
                assertThat(answered.path("omitted").toString()).contains(stream + ": ");
            }
        }
    }

    @Property(tries = 300)
    void aLogRangeIsShownFromItsStartAndReadsOnWhereItStopped(
            @ForAll("bytes") byte[] bytes, @ForAll @IntRange(min = 1024, max = 4096) int max) throws IOException {
        AnswerBudget budget = new AnswerBudget(max, JSON);

        String answer = budget.log("stdout", new LogRange(bytes, 100, true));

        assertThat(answer.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(max);
        JsonNode shown = JSON.readTree(answer);
        int count = (int) (shown.path("nextOffset").asLong() - 100);
        assertThat(count).isBetween(0, bytes.length);
        byte[] prefix = Arrays.copyOf(bytes, count);
        assertThat(shown.has("text")).isFalse();
        assertThat(shown.at("/agentWritten/~1text").asText()).isEqualTo(new String(prefix, StandardCharsets.UTF_8));
        assertThat(shown.path("end").asBoolean()).isEqualTo(count == bytes.length);
        assertThat(shown.has("omitted")).isEqualTo(count < bytes.length);
    }

    @Property(tries = 50)
    void aListingDropsItemsFromItsEndAndSaysWhereToGoOn(@ForAll @IntRange(min = 0, max = 60) int count) {
        AnswerBudget budget = new AnswerBudget(1024, JSON);
        List<DispatchListView.Item> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            items.add(new DispatchListView.Item(
                    "d-" + i,
                    "default",
                    Dispatch.Status.SUCCEEDED,
                    "img",
                    Instant.EPOCH,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null));
        }

        String answer = budget.list(new DispatchListView(items, null), DispatchListView.Item::id);

        assertThat(answer.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(1024);
        JsonNode shown = readTree(answer);
        int kept = shown.path("items").size();
        assertThat(kept).isLessThanOrEqualTo(count);
        if (kept < count) {
            assertThat(shown.path("after").asText()).isEqualTo("d-" + (kept - 1));
            assertThat(shown.path("omitted").get(0).asText()).startsWith((count - kept) + " items");
        } else {
            assertThat(shown.path("after").isNull()).isTrue();
        }
    }

    @Provide
    Arbitrary<String> texts() {
        return Arbitraries.strings()
                .withChars("ab\"\\\n\t\u0001é€😀")
                .withCharRange('a', 'z')
                .ofMaxLength(6000);
    }

    @Provide
    Arbitrary<byte[]> bytes() {
        List<Byte> text = new ArrayList<>();
        for (byte b : "a\"\n\u0001é€😀".getBytes(StandardCharsets.UTF_8)) {
            text.add(b);
        }
        return Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.bytes()), Tuple.of(4, Arbitraries.of(text)))
                .array(byte[].class)
                .ofMaxSize(5000);
    }

    private static JsonNode readTree(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
