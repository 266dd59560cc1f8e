package dev.sluice.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.report.AgentReport;
import dev.sluice.report.ReportNumber;
import dev.sluice.report.ReportStatus;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The digest's promise: at most 512 bytes of JSON, the worker's fields always whole. */
class DispatchDigestTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The longest id a tenant may send. */
    private static final String LONGEST_ID = "x".repeat(64);
    /** The longest key: a tenant of 32 characters, and the longest id. */
    private static final String LONGEST_KEY = "t".repeat(32) + "." + LONGEST_ID;

    private static DispatchDigest.Facts worst(String id) {
        DispatchDigest.Stream stream = new DispatchDigest.Stream(Long.MAX_VALUE, 16 << 20, true);
        return new DispatchDigest.Facts(
                id,
                Dispatch.Status.TIMED_OUT,
                Integer.MIN_VALUE,
                "secrets_unavailable",
                stream,
                stream,
                Integer.MAX_VALUE,
                ReportStatus.TRUNCATED);
    }

    private static DispatchDigest.Facts typical() {
        DispatchDigest.Stream out = new DispatchDigest.Stream(108930, 1020, true);
        DispatchDigest.Stream err = new DispatchDigest.Stream(20, 20, false);
        return new DispatchDigest.Facts(
                "review-45", Dispatch.Status.SUCCEEDED, 0, null, out, err, 0, ReportStatus.PRESENT);
    }

    @Property(tries = 500)
    void everyDigestIsJsonOfAtMost512BytesWithTheWorkersFieldsWhole(
            @ForAll("keys") String id, @ForAll("reports") AgentReport report, @ForAll boolean worstFacts)
            throws Exception {
        DispatchDigest.Facts facts = worstFacts ? worst(id) : typical();
        byte[] digest = DispatchDigest.of(facts, report);

        assertThat(digest.length).isLessThanOrEqualTo(DispatchDigest.MAX_BYTES);
        JsonNode node = JSON.readTree(digest);
        assertThat(node.path("id").asText()).isEqualTo(DispatchKey.idOf(facts.id()));
        assertThat(node.path("tenant").asText()).isEqualTo(DispatchKey.tenantOf(facts.id()));
        assertThat(node.path("stdout").path("bytes").asLong())
                .isEqualTo(facts.stdout().bytes());
        assertThat(node.path("reportStatus").asText())
                .isEqualTo(facts.reportStatus().wire());
        assertThat(node.path("links").path("self").asText())
                .isEqualTo("/v1/dispatches/" + DispatchKey.idOf(facts.id()));
        JsonNode shown = node.path("report");
        if (!shown.isNull()) {
            assertThat(shown.path("confidence").asText()).isEqualTo(report.confidence());
            assertThat(shown.path("filesChanged").asInt())
                    .isEqualTo(report.filesChanged().size());
            String summary = shown.path("summary").asText();
            assertThat(summary.codePointCount(0, summary.length())).isLessThanOrEqualTo(280);
            assertThat(report.summary())
                    .startsWith(summary.endsWith("…") ? summary.substring(0, summary.length() - 1) : summary);
            shown.path("stats")
                    .fieldNames()
                    .forEachRemaining(k -> assertThat(report.stats()).containsKey(k));
        }
    }

    @Test
    void theWorstCaseOfTheWorkersFieldsFitsWithRoomToSpare() {
        // Counts of exabytes and the longest names of all: the report may be left out, the facts never.
        assertThat(DispatchDigest.of(worst(LONGEST_KEY), null).length).isLessThanOrEqualTo(DispatchDigest.MAX_BYTES);
        // The default tenant's longest id leaves room for a report's skeleton.
        assertThat(DispatchDigest.of(worst(LONGEST_ID), null).length).isLessThanOrEqualTo(480);
    }

    @Test
    void aTypicalReportShowsItsSummaryCutToFitAndKeepsRoomForStats() throws Exception {
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("testsRun", new ReportNumber("42"));
        stats.put("coverage", "81%");
        AgentReport report =
                new AgentReport("s".repeat(1000), List.of("f"), "high", "approve", List.of("a", "b", "c"), stats);

        byte[] digest = DispatchDigest.of(typical(), report);

        JsonNode shown = JSON.readTree(digest).path("report");
        assertThat(digest.length).isLessThanOrEqualTo(512).isGreaterThan(480);
        assertThat(shown.path("summary").asText()).endsWith("…").startsWith("sss");
        assertThat(shown.path("stats").toString()).isEqualTo("{\"testsRun\":42,\"coverage\":\"81%\"}");
        assertThat(shown.path("filesChanged").asInt()).isEqualTo(3);
        assertThat(shown.path("verdict").asText()).isEqualTo("approve");
    }

    @Test
    void aShortReportIsShownWhole() throws Exception {
        AgentReport report = new AgentReport("All good.", List.of(), "low", null, List.of(), Map.of());
        JsonNode shown = JSON.readTree(DispatchDigest.of(typical(), report)).path("report");
        assertThat(shown.toString())
                .isEqualTo("{\"verdict\":null,\"confidence\":\"low\",\"summary\":\"All good.\",\"filesChanged\":0,"
                        + "\"stats\":{}}");
    }

    @Test
    void aVerdictThatCostsMuchIsShortenedRatherThanTheReportLeftOut() throws Exception {
        DispatchDigest.Stream out = new DispatchDigest.Stream(5_000_000, 4_194_200, true);
        DispatchDigest.Facts facts = new DispatchDigest.Facts(
                LONGEST_ID, Dispatch.Status.SUCCEEDED, 0, null, out, out, 0, ReportStatus.TRUNCATED);
        AgentReport report = new AgentReport("s", List.of(), "high", "\u0002".repeat(20), List.of(), Map.of());

        byte[] digest = DispatchDigest.of(facts, report);

        assertThat(digest.length).isLessThanOrEqualTo(512);
        JsonNode shown = JSON.readTree(digest).path("report");
        assertThat(shown.isNull()).isFalse();
        assertThat(shown.path("verdict").asText()).endsWith("…").startsWith("\u0002");
    }

    @Test
    void withNoRoomForEvenItsSkeletonTheReportIsLeftOut() throws Exception {
        AgentReport report = new AgentReport("x", List.of(), "medium", "v".repeat(64), List.of(), Map.of());
        JsonNode digest = JSON.readTree(DispatchDigest.of(worst(LONGEST_ID), report));
        assertThat(digest.path("report").isNull()).isTrue();
        assertThat(digest.path("reportStatus").asText()).isEqualTo("truncated");
    }

    @Test
    void anUnfinishedDispatchHasItsStatusAndNothingElse() throws Exception {
        JsonNode digest = JSON.readTree(DispatchDigest.unfinished("d-1", Dispatch.Status.RUNNING));
        assertThat(digest.toString())
                .isEqualTo(
                        "{\"id\":\"d-1\",\"tenant\":\"default\",\"status\":\"running\",\"exitCode\":null,\"error\":null,\"stdout\":null,"
                                + "\"stderr\":null,\"artifacts\":null,\"reportStatus\":null,\"report\":null,"
                                + "\"links\":{\"self\":\"/v1/dispatches/d-1\"}}");
    }

    /** Keys: an id, in the default tenant or after another tenant's name. */
    @Provide
    Arbitrary<String> keys() {
        Arbitrary<String> ids =
                Arbitraries.strings().withChars("abcXYZ019_-").ofMinLength(1).ofMaxLength(64);
        Arbitrary<String> tenants = Arbitraries.strings()
                .withChars("abc019_-")
                .ofMinLength(0)
                .ofMaxLength(31)
                .map(t -> "t" + t);
        return Combinators.combine(tenants.injectNull(0.5), ids)
                .as((tenant, id) -> tenant == null ? id : tenant + "." + id)
                .edgeCases(e -> e.add(LONGEST_ID).add(LONGEST_KEY));
    }

    @Provide
    Arbitrary<AgentReport> reports() {
        // Text that costs the most per character in JSON: controls (6 bytes escaped), quotes, 4-byte emoji.
        Arbitrary<String> text = Arbitraries.strings()
                .withChars('\u0001', '"', '\\', 'a', 'é', '日')
                .withCharRange('\u0000', '\u001f')
                .ofMaxLength(2048)
                .map(s -> s + "😀".repeat(s.length() % 7));
        Arbitrary<Map<String, Object>> stats = Arbitraries.maps(
                        Arbitraries.strings()
                                .withChars('k', '\u0002', '"')
                                .ofMinLength(1)
                                .ofMaxLength(64),
                        Arbitraries.oneOf(
                                Arbitraries.strings().ofMaxLength(128).map(s -> (Object) s),
                                Arbitraries.longs().map(n -> (Object) new ReportNumber(Long.toString(n)))))
                .ofMaxSize(32)
                .map(LinkedHashMap::new);
        return Combinators.combine(
                        text,
                        Arbitraries.of("high", "medium", "low"),
                        text.map(v -> v.substring(0, Math.min(v.length(), 128))).injectNull(0.3),
                        Arbitraries.integers().between(0, 100),
                        stats)
                .as((summary, confidence, verdict, files, s) -> new AgentReport(
                        summary, List.of(), confidence, verdict, java.util.Collections.nCopies(files, "f"), s));
    }
}
