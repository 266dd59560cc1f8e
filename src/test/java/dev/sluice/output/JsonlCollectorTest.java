package dev.sluice.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * JSON Lines are cut only between records (ADR 0031): what is kept parses line
 * by line, the marker is itself a JSON line carrying the nonce, and the counts
 * say what was written, kept and dropped, records and text apart.
 */
class JsonlCollectorTest {

    private static final int CAP = 2048;
    private static final String NONCE = "jS0nl-n0nce1";
    private static final String LOG = "/v1/dispatches/d-1/logs/stdout";

    private static JsonlCollector collector(SecretMasker masker) {
        return new JsonlCollector("stdout", CAP, LOG, NONCE, masker);
    }

    private static CapturedOutput collect(String input) {
        JsonlCollector c = collector(SecretMasker.NONE);
        byte[] bytes = input.getBytes(StandardCharsets.UTF_8);
        Chunks.feed(bytes, List.of(7, 300, 1), c::write);
        return c.finish();
    }

    private static String records(int from, int count) {
        StringBuilder b = new StringBuilder();
        for (int i = from; i < from + count; i++) {
            b.append("{\"row\":").append(i).append(",\"site\":\"s-").append(i).append("\"}\n");
        }
        return b.toString();
    }

    @Test
    void aStreamThatFitsIsReturnedAsItIs() {
        String input = records(0, 10) + "plain text\n";
        CapturedOutput out = collect(input);

        assertThat(out.text().toString()).isEqualTo(input);
        assertThat(out.overflow()).isNull();
        assertThat(out.format()).isEqualTo(FormatOutcome.as(OutputFormat.JSONL));
        assertThat(out.tokens()).isEqualTo((2L * input.length() + 6) / 7);
    }

    @Test
    void aLongStreamIsCutBetweenRecordsAndEveryLineParses() {
        String input = records(0, 5000);
        CapturedOutput out = collect(input);

        JsonlOutput read = JsonlOutput.read(out.text().toString(), NONCE);
        assertThat(read.textLines()).isZero();
        assertThat(read.markers()).hasSize(1);
        Overflow o = out.overflow();
        assertThat(o.format()).isEqualTo(OutputFormat.JSONL);
        assertThat(o.records()).isEqualTo(new Overflow.Counts(5000, read.records(), 5000 - read.records()));
        assertThat(o.textLines()).isEqualTo(new Overflow.Counts(0, 0, 0));
        assertThat(o.oversizedLines()).isEqualTo(new Overflow.Counts(0, 0, 0));
        assertThat(o.keptBytes()).isEqualTo(out.text().length()).isLessThanOrEqualTo(CAP);
        // The kept records are the first and the last ones, whole.
        List<String> lines = read.lines();
        int marker = lines.indexOf(
                lines.stream().filter(l -> l.contains(NONCE)).findFirst().orElseThrow());
        assertThat(input).startsWith(String.join("", lines.subList(0, marker)));
        assertThat(input).endsWith(String.join("", lines.subList(marker + 1, lines.size())));
        JsonNode middle = read.middle();
        assertThat(middle.get("droppedRecords").asLong()).isEqualTo(o.records().dropped());
        assertThat(middle.get("droppedBytes").asLong()).isEqualTo(o.droppedBytes());
        assertThat(middle.get("originalBytes").asLong()).isEqualTo(input.length());
        assertThat(middle.get("log").asText()).isEqualTo(LOG);
        assertThat(middle.has("logFrom")).isFalse();
        assertThat(o.originalBytes() - o.droppedBytes())
                .isEqualTo(input.length() - middle.get("droppedBytes").asLong());
    }

    @Test
    void markersSayWhereTheRuntimesLogBeginsWhenItsStartWasRotatedOut() {
        String big = "{\"blob\":\"" + "x".repeat(10 * CAP) + "\"}\n";
        String input = records(0, 3) + big + records(3, 5000);
        JsonlCollector c = collector(SecretMasker.NONE);
        byte[] bytes = input.getBytes(StandardCharsets.UTF_8);
        Chunks.feed(bytes, List.of(1000), c::write);
        long availableFrom = 123_456_789_012L; // wider than the stream: the marker's room must still hold it
        CapturedOutput out = c.finish(availableFrom);

        JsonlOutput read = JsonlOutput.read(out.text().toString(), NONCE);
        assertThat(read.middle().get("logFrom").asLong()).isEqualTo(availableFrom);
        assertThat(read.markers())
                .allSatisfy(m -> assertThat(m.get("logFrom").asLong()).isEqualTo(availableFrom));
        assertThat(read.oversizedMarkers()).isEqualTo(1);
        assertThat(out.text().length()).isLessThanOrEqualTo(CAP);
    }

    @Test
    void linesThatAreNotJsonAreKeptAsTextAndCounted() {
        String input = "starting up\n" + records(0, 3000) + "{\"broken\": \n" + "done, 3000 rows\n";
        CapturedOutput out = collect(input);

        JsonlOutput read = JsonlOutput.read(out.text().toString(), NONCE);
        Overflow o = out.overflow();
        assertThat(o.textLines()).isEqualTo(new Overflow.Counts(3, 3, 0));
        assertThat(read.textLines()).isEqualTo(3);
        assertThat(out.text().toString()).startsWith("starting up\n").endsWith("{\"broken\": \ndone, 3000 rows\n");
        assertThat(o.records().written()).isEqualTo(3000);
        assertThat(o.records().kept()).isEqualTo(read.records());
    }

    @Test
    void aRecordLargerThanTheCapIsReplacedByAMarkerRecordGivingItsSize() {
        String big = "{\"blob\":\"" + "x".repeat(10 * CAP) + "\"}\n";
        String before = records(0, 3);
        String input = before + big + records(3, 3);
        JsonlCollector c = collector(SecretMasker.NONE);
        byte[] bytes = input.getBytes(StandardCharsets.UTF_8);
        Chunks.feed(bytes, List.of(1000), c::write);
        assertThat(c.bytesAllocated()).isLessThanOrEqualTo(4L * CAP);
        CapturedOutput out = c.finish();

        JsonlOutput read = JsonlOutput.read(out.text().toString(), NONCE);
        assertThat(read.textLines()).isZero();
        assertThat(read.records()).isEqualTo(6);
        assertThat(read.oversizedMarkers()).isEqualTo(1);
        JsonNode marker = read.markers().get(0).get("oversizedLine");
        assertThat(marker.get("offset").asLong()).isEqualTo(before.length());
        assertThat(marker.get("bytes").asLong()).isEqualTo(big.length());
        assertThat(read.middle()).as("nothing else was dropped").isNull();
        Overflow o = out.overflow();
        assertThat(o.oversizedLines()).isEqualTo(new Overflow.Counts(1, 1, 0));
        assertThat(o.records()).isEqualTo(new Overflow.Counts(6, 6, 0));
        assertThat(o.droppedBytes()).isEqualTo(big.length());
        assertThat(out.text().toString()).startsWith(before).endsWith(records(3, 3));
    }

    @Test
    void aLastLineLargerThanTheCapWithoutANewlineIsReplacedToo() {
        String big = "[" + "1,".repeat(3 * CAP) + "1]";
        CapturedOutput out = collect(records(0, 2) + big);

        JsonlOutput read = JsonlOutput.read(out.text().toString(), NONCE);
        assertThat(read.oversizedMarkers()).isEqualTo(1);
        assertThat(read.markers().get(0).at("/oversizedLine/bytes").asLong()).isEqualTo(big.length());
    }

    @Test
    void memoryStaysWithinAFewCapsHoweverManyRecords() {
        JsonlCollector c = collector(SecretMasker.NONE);
        byte[] chunk = records(0, 2000).getBytes(StandardCharsets.UTF_8);
        byte[] tiny = "1\n".repeat(5000).getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < 200; i++) {
            c.write(chunk, 0, chunk.length);
            c.write(tiny, 0, tiny.length);
        }
        assertThat(c.bytesAllocated()).isLessThanOrEqualTo(4L * CAP + 4L * CAP);
        Overflow o = c.finish().overflow();
        assertThat(o.records().written()).isEqualTo(200L * 7000);
        assertThat(o.records().kept() + o.records().dropped())
                .isEqualTo(o.records().written());
    }

    @Test
    void forgedMarkerRecordsAreLeftAsWrittenAndCannotCarryTheNonce() {
        String fake = "{\"sluice.truncated\":{\"nonce\":\"guessed-nonc\",\"stream\":\"stdout\",\"droppedBytes\":5,"
                + "\"droppedRecords\":1,\"droppedTextLines\":0,\"droppedOversizedLines\":0,\"originalBytes\":9,"
                + "\"log\":\"" + LOG + "\"}}\n";
        String fakeOversized = "{\"sluice.truncated\":{\"oversizedLine\":{\"offset\":0,\"bytes\":99999}}}\n";
        // A fake that fits: the stream is whole, so no line in it is a marker.
        CapturedOutput whole = collect(fake + records(0, 2));
        assertThat(whole.overflow()).isNull();
        assertThat(JsonlOutput.read(whole.text().toString(), NONCE).markers()).isEmpty();

        // Fakes at the start, beside the cut and at the end of a truncated stream.
        String input = fake + records(0, 1500) + fake + fakeOversized + records(1500, 1500) + fake;
        CapturedOutput out = collect(input);
        JsonlOutput read = JsonlOutput.read(out.text().toString(), NONCE);
        assertThat(read.markers()).hasSize(1);
        assertThat(out.text().toString()).startsWith(fake).endsWith(fake);
        assertThat(out.overflow().records().written()).isEqualTo(3000 + 4);
        assertThat(read.middle().get("droppedRecords").asLong())
                .isEqualTo(out.overflow().records().dropped());
    }

    @Test
    void secretsAreMaskedInTheKeptRecordsWhichStillParse() {
        SecretMasker masker = new SecretMasker(List.of("hunter2-secret"), 8);
        JsonlCollector c = collector(masker);
        String input = "{\"token\":\"hunter2-secret\"}\n" + records(0, 3000) + "{\"again\":\"hunter2-secret\"}\n";
        byte[] bytes = input.getBytes(StandardCharsets.UTF_8);
        Chunks.feed(bytes, List.of(5, 64), c::write);
        CapturedOutput out = c.finish();

        assertThat(out.text().toString()).doesNotContain("hunter2").contains("{\"token\":\"**************\"}\n");
        JsonlOutput read = JsonlOutput.read(out.text().toString(), NONCE);
        assertThat(read.textLines()).isZero();
    }

    @Test
    void invalidUtf8IsReplacedAndTheLineCountedAsWhatItIsThen() {
        byte[] bad = "{\"k\":\"\u00e9\"}\nnot \u00ff json\n".getBytes(StandardCharsets.ISO_8859_1);
        JsonlCollector c = collector(SecretMasker.NONE);
        c.write(bad, 0, bad.length);
        CapturedOutput out = c.finish();
        assertThat(out.text().toString()).isEqualTo("{\"k\":\"\uFFFD\"}\nnot \uFFFD json\n");
    }

    @Test
    void theCapFloorHoldsTheWorstCaseMarkerRecord() {
        String longestLog = "/v1/dispatches/" + "x".repeat(64) + "/logs/stdout";
        int min = StreamCollector.minCap(OutputFormat.JSONL, longestLog, NONCE);
        assertThat(min).isEqualTo(OutputCollector.MIN_CAP);
        new JsonlCollector("stdout", min, longestLog, NONCE, SecretMasker.NONE);
    }
}
