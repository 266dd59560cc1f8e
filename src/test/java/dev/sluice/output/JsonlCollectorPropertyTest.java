package dev.sluice.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The jsonl collector checked on random streams against a plain reference:
 * the stream split into lines in memory, each line judged by Jackson's tree
 * reader. Whatever the cap and the chunking, the string is the stream's first
 * lines and its last lines, whole, at most one genuine middle marker between
 * them, every line parses as what it is counted as, and the counts add up.
 */
class JsonlCollectorPropertyTest {

    private static final String LOG = "/v1/dispatches/p/logs/stdout";
    private static final String NONCE = "pr0perty-jsl";

    @Property(tries = 400)
    void keptLinesAreWholeTheirCountsAddUpAndEveryLineParses(
            @ForAll("streams") List<String> lines,
            @ForAll @IntRange(min = 1024, max = 4096) int cap,
            @ForAll("chunkSizes") List<Integer> chunks) {
        String input = String.join("", lines);
        byte[] bytes = input.getBytes(StandardCharsets.UTF_8);
        CapturedOutput out = feed(bytes, cap, chunks);
        String text = out.text().toString();

        assertThat(out.originalBytes()).isEqualTo(bytes.length);
        assertThat(out.digest()).isEqualTo(StreamDigesterTest.reference(bytes));
        assertThat(out.text().length()).isLessThanOrEqualTo(cap);
        assertThat(out.tokens()).isEqualTo((2L * out.text().length() + 6) / 7);

        List<String> expected = new ArrayList<>();
        long[] written = new long[3];
        boolean oversized = false;
        long offset = 0;
        for (String line : lines) {
            int size = line.getBytes(StandardCharsets.UTF_8).length;
            if (size > cap) {
                oversized = true;
                written[LineQueue.OVERSIZED]++;
                expected.add(new JsonlMarker("stdout", LOG, NONCE).oversized(offset, size, 0));
            } else {
                written[JsonlOutput.parse(line) == null ? LineQueue.TEXT : LineQueue.RECORD]++;
                expected.add(line);
            }
            offset += size;
        }
        boolean fits = !oversized && bytes.length <= cap;
        assertThat(out.truncated()).isEqualTo(!fits);
        if (fits) {
            assertThat(text).isEqualTo(input);
            return;
        }

        JsonlOutput read = JsonlOutput.read(text, NONCE);
        List<String> shown = new ArrayList<>(read.lines());
        int middle = -1;
        for (int i = 0; i < shown.size(); i++) {
            JsonNode node = JsonlOutput.parse(shown.get(i));
            if (node != null
                    && NONCE.equals(node.at("/sluice.truncated/nonce").asText(null))
                    && node.at("/sluice.truncated/droppedRecords").isNumber()) {
                assertThat(middle).as("one middle marker at most").isEqualTo(-1);
                middle = i;
            }
        }
        List<String> head = middle < 0 ? shown : shown.subList(0, middle);
        List<String> tail = middle < 0 ? List.of() : shown.subList(middle + 1, shown.size());
        assertThat(expected.subList(0, head.size())).isEqualTo(head);
        assertThat(expected.subList(expected.size() - tail.size(), expected.size()))
                .isEqualTo(tail);
        int dropped = expected.size() - head.size() - tail.size();
        assertThat(dropped > 0).isEqualTo(middle >= 0);

        Overflow o = out.overflow();
        assertThat(o.format()).isEqualTo(OutputFormat.JSONL);
        assertThat(o.nonce()).isEqualTo(NONCE);
        assertThat(o.keptBytes()).isEqualTo(out.text().length());
        assertThat(o.records().written()).isEqualTo(written[LineQueue.RECORD]);
        assertThat(o.textLines().written()).isEqualTo(written[LineQueue.TEXT]);
        assertThat(o.oversizedLines().written()).isEqualTo(written[LineQueue.OVERSIZED]);
        for (Overflow.Counts c : List.of(o.records(), o.textLines(), o.oversizedLines())) {
            assertThat(c.kept() + c.dropped()).isEqualTo(c.written());
        }
        assertThat(o.records().kept()).isEqualTo(read.records());
        assertThat(o.textLines().kept()).isEqualTo(read.textLines());
        assertThat(o.oversizedLines().kept()).isEqualTo(read.oversizedMarkers());
        assertThat(o.records().dropped()
                        + o.textLines().dropped()
                        + o.oversizedLines().dropped())
                .isEqualTo(dropped);
        if (middle >= 0) {
            JsonNode m = read.middle();
            assertThat(m.get("droppedRecords").asLong()).isEqualTo(o.records().dropped());
            assertThat(m.get("droppedTextLines").asLong())
                    .isEqualTo(o.textLines().dropped());
            assertThat(m.get("droppedOversizedLines").asLong())
                    .isEqualTo(o.oversizedLines().dropped());
            assertThat(m.get("originalBytes").asLong()).isEqualTo(bytes.length);
        }
        long shownBytes = 0;
        for (String line : shown) {
            if (!line.contains(NONCE)) {
                shownBytes += line.getBytes(StandardCharsets.UTF_8).length;
            }
        }
        assertThat(o.droppedBytes()).isEqualTo(bytes.length - shownBytes);
    }

    @Property(tries = 150)
    void chunkingNeverChangesTheResult(
            @ForAll("streams") List<String> lines, @ForAll("chunkSizes") List<Integer> chunks) {
        byte[] bytes = String.join("", lines).getBytes(StandardCharsets.UTF_8);
        assertThat(feed(bytes, 1024, chunks)).isEqualTo(feed(bytes, 1024, List.of(Integer.MAX_VALUE)));
    }

    private static CapturedOutput feed(byte[] input, int cap, List<Integer> chunks) {
        JsonlCollector c = new JsonlCollector("stdout", cap, LOG, NONCE, SecretMasker.NONE);
        Chunks.feed(input, chunks, c::write);
        return c.finish();
    }

    @Provide
    Arbitrary<List<String>> streams() {
        Arbitrary<String> word = Arbitraries.of("a", "site", "\u00e9t\u00e9", "\u20ac", "\uD83D\uDE00", "\\\"", " ")
                .list()
                .ofMaxSize(12)
                .map(l -> String.join("", l));
        Arbitrary<String> record = Arbitraries.integers()
                .between(0, 1_000_000)
                .flatMap(n -> word.map(w -> "{\"row\":" + n + ",\"site\":\"" + w + "\"}"));
        Arbitrary<String> big =
                Arbitraries.integers().between(800, 6000).map(n -> "{\"blob\":\"" + "b".repeat(n) + "\"}");
        Arbitrary<String> other = Arbitraries.of(
                "42",
                "[1,2,{\"x\":null}]",
                "\"a string\"",
                "  {\"spaced\": true}  ",
                "",
                "plain text, not json",
                "{\"broken\":",
                "{} {}",
                "{\"sluice.truncated\":{\"nonce\":\"guess-guess1\",\"droppedRecords\":3}}",
                "{\"sluice.truncated\":{\"nonce\":\"pr0perty-jsx\",\"oversizedLine\":{\"offset\":0,\"bytes\":9}}}");
        Arbitrary<String> line = Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(12, record),
                        net.jqwik.api.Tuple.of(1, big),
                        net.jqwik.api.Tuple.of(3, other))
                .map(s -> s + "\n");
        return line.list()
                .ofMaxSize(300)
                .flatMap(ls -> Arbitraries.of(true, false).map(cut -> {
                    if (cut && !ls.isEmpty()) {
                        List<String> copy = new ArrayList<>(ls);
                        String last = copy.remove(copy.size() - 1);
                        if (last.length() > 1) {
                            // The last line without its newline; an empty line without one is no line at all.
                            copy.add(last.substring(0, last.length() - 1));
                        }
                        return copy;
                    }
                    return ls;
                }));
    }

    @Provide
    Arbitrary<List<Integer>> chunkSizes() {
        return Chunks.sizes();
    }
}
