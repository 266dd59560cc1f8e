package dev.sluice.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.output.Utf8Text;

class ReportParserTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static ReportReading parse(String json) {
        return ReportParser.parse(json.getBytes(StandardCharsets.UTF_8));
    }

    private static String report(String extra) {
        return "{\"summary\":\"ok\",\"keyFindings\":[\"a\"],\"confidence\":\"high\"" + extra + "}";
    }

    static List<ReportSamples.Sample> samples() {
        return ReportSamples.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void eachSampleIsJudgedAsTheSchemaJudgesIt(ReportSamples.Sample sample) {
        ReportReading reading = ReportParser.parse(sample.json());
        assertThat(reading.status() != ReportStatus.MALFORMED)
                .as(reading.detail())
                .isEqualTo(sample.valid());
        assertThat(reading.report() != null).isEqualTo(sample.valid());
        assertThat(reading.source()).isEqualTo(ReportSource.FILE);
    }

    @Test
    void aValidReportIsPresentWithDefaultsForWhatItLeftOut() {
        ReportReading reading = parse(report(""));
        assertThat(reading.status()).isEqualTo(ReportStatus.PRESENT);
        assertThat(reading.detail()).isNull();
        assertThat(reading.report()).isEqualTo(new AgentReport("ok", List.of("a"), "high", null, List.of(), Map.of()));
    }

    @Test
    void everyBoundCutsInsideItselfAndSaysWhatItCut() {
        String findings = IntStream.range(0, 50)
                .mapToObj(i -> "\"" + "f".repeat(i == 0 ? 600 : 3) + "\"")
                .collect(Collectors.joining(","));
        String stats = IntStream.range(0, 100)
                .mapToObj(i -> "\"k" + i + "\":" + (i == 1 ? "\"" + "s".repeat(300) + "\"" : i))
                .collect(Collectors.joining(","));
        String json = "{\"summary\":\"" + "é".repeat(1500) + "\",\"keyFindings\":[" + findings
                + "],\"confidence\":\"low\",\"verdict\":\"" + "v".repeat(200) + "\",\"filesChanged\":["
                + IntStream.range(0, 120).mapToObj(i -> "\"f" + i + "\"").collect(Collectors.joining(","))
                + "],\"stats\":{" + stats + "}}";

        ReportReading reading = parse(json);

        assertThat(reading.status()).isEqualTo(ReportStatus.TRUNCATED);
        AgentReport r = reading.report();
        assertThat(utf8(r.summary())).isLessThanOrEqualTo(2048);
        assertThat(r.summary()).endsWith(ReportParser.CUT).startsWith("éé");
        assertThat(r.summary().replace(ReportParser.CUT, "")).matches("é+"); // never half a character
        assertThat(r.keyFindings()).hasSize(20);
        assertThat(r.keyFindings().get(0)).endsWith(ReportParser.CUT);
        assertThat(utf8(r.keyFindings().get(0))).isLessThanOrEqualTo(512);
        assertThat(r.keyFindings().get(1)).isEqualTo("fff");
        assertThat(utf8(r.verdict())).isLessThanOrEqualTo(128);
        assertThat(r.filesChanged()).hasSize(100).startsWith("f0");
        assertThat(r.stats()).hasSize(32).containsEntry("k0", new ReportNumber("0"));
        assertThat((String) r.stats().get("k1")).endsWith(ReportParser.CUT);
        assertThat(utf8((String) r.stats().get("k1"))).isLessThanOrEqualTo(128);
        assertThat(reading.detail())
                .isEqualTo("summary cut to 2048 bytes; keyFindings: 50 given, 20 kept; "
                        + "1 of keyFindings cut to 512 bytes; verdict cut to 128 bytes; "
                        + "filesChanged: 120 given, 100 kept; stats: 100 given, 32 kept; 1 of stats cut to 128 bytes");
    }

    @Test
    void numbersAreKeptAsWrittenAndOverlongOnesDropped() throws Exception {
        ReportReading reading = parse(report(",\"stats\":{\"a\":1e3,\"b\":-0.50,\"c\":1" + "0".repeat(70) + "}"));
        assertThat(reading.status()).isEqualTo(ReportStatus.TRUNCATED);
        assertThat(reading.report().stats()).containsOnlyKeys("a", "b");
        assertThat(JSON.writeValueAsString(reading.report().stats())).isEqualTo("{\"a\":1e3,\"b\":-0.50}");
        assertThat(reading.detail()).isEqualTo("1 of stats dropped: numbers longer than 64 characters");
    }

    @Test
    void whatIsNotAReportIsMalformedWithTheReason() {
        assertThat(parse(report(",\"confidence\":\"low\"")).detail())
                .startsWith("is not valid JSON")
                .contains("Duplicate");
        assertThat(parse(report("") + " {}").detail()).isEqualTo("content follows the report object");
        assertThat(parse("{\"summary\":\"ok\",").detail()).startsWith("is not valid JSON");
        assertThat(parse(report(",\"notes\":1")).detail()).isEqualTo("notes: is not a known field");
        assertThat(parse(report(",\"" + "n".repeat(1000) + "\":1")).detail()).hasSizeLessThan(100);
        assertThat(parse("{\"keyFindings\":[],\"confidence\":\"low\"}").detail())
                .isEqualTo("summary: is required");
        assertThat(parse(report(",\"stats\":{\"x\":{\"y\":1}}")).detail())
                .isEqualTo("stats.x: must be a number or a string");
        assertThat(parse("{\"summary\":\"" + "[".repeat(100_000)).status()).isEqualTo(ReportStatus.MALFORMED);
        byte[] notUtf8 = report("").getBytes(StandardCharsets.UTF_8);
        notUtf8[13] = (byte) 0xff;
        assertThat(ReportParser.parse(notUtf8).detail()).startsWith("is not valid JSON in UTF-8");
        assertThat(ReportParser.parse(new byte[0]).status()).isEqualTo(ReportStatus.MALFORMED);
    }

    @Test
    void loneSurrogatesBecomeReplacementCharactersSoTheResultCanBeWritten() throws Exception {
        ReportReading reading =
                parse("{\"summary\":\"a\\ud800b\",\"keyFindings\":[\"\\udc00\"],\"confidence\":\"low\"}");
        assertThat(reading.report().summary()).isEqualTo("a\uFFFDb");
        assertThat(reading.report().keyFindings()).containsExactly("\uFFFD");
        assertThat(JSON.writeValueAsString(reading.report())).contains("a\uFFFDb");
    }

    @Test
    void theLastStdoutLineCarriesAReportWhenItIsOne() {
        String line = "{\"sluice.report\": " + report("") + "}";
        ReportReading reading =
                ReportLine.find(Utf8Text.of("working\n" + line + "\n"), 65536).orElseThrow();
        assertThat(reading.status()).isEqualTo(ReportStatus.PRESENT);
        assertThat(reading.source()).isEqualTo(ReportSource.STDOUT);
        assertThat(ReportLine.find(Utf8Text.of(line + "\r\n"), 65536)).isPresent();

        assertThat(ReportLine.find(Utf8Text.of(line + "\nmore output\n"), 65536))
                .isEmpty();
        assertThat(ReportLine.find(Utf8Text.of("{\"other\":1}\n"), 65536)).isEmpty();
        assertThat(ReportLine.find(Utf8Text.EMPTY, 65536)).isEmpty();
        assertThat(ReportLine.find(Utf8Text.of("{\"sluice.report\": {\"summary\": 1}}"), 65536)
                        .orElseThrow()
                        .detail())
                .isEqualTo("summary: must be a string");
        assertThat(ReportLine.find(Utf8Text.of("{\"sluice.report\": " + report("") + ", \"x\": 1}"), 65536)
                        .orElseThrow()
                        .status())
                .isEqualTo(ReportStatus.MALFORMED);
        assertThat(ReportLine.find(Utf8Text.of(line), 64).orElseThrow().detail())
                .isEqualTo("the report line is larger than 64 bytes");
    }

    private static int utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
