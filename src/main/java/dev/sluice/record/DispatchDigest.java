package dev.sluice.record;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import dev.sluice.json.CompactJson;
import dev.sluice.json.JsonBudget;
import dev.sluice.output.Overflow;
import dev.sluice.output.Utf8Text;
import dev.sluice.report.AgentReport;
import dev.sluice.report.ReportNumber;
import dev.sluice.report.ReportStatus;

/**
 * A dispatch in at most {@value #MAX_BYTES} bytes of compact JSON, whatever it
 * printed and whatever its agent reported (docs/api.md, section 7.6): what a
 * parent running many dispatches keeps of each. The worker's fields come first
 * and always fit; the agent's report takes the room that is left, its summary
 * and stats cut to fit, and is left out (null) when not even its skeleton does.
 */
public final class DispatchDigest {

    public static final int MAX_BYTES = 512;
    static final int SUMMARY_CHARS = 280;
    static final int VERDICT_CHARS = 64;
    /** The most a verdict may take of the digest, escaped: a verdict is short, the summary comes next. */
    static final int VERDICT_ROOM = 64;
    /** Room kept for stats before the summary takes what is left. */
    static final int STATS_ROOM = 96;

    private static final String CUT = "…";
    private static final JsonBudget BUDGET = new JsonBudget(MAX_BYTES);
    /** Reads a digest back; the digest itself is written with {@link CompactJson}. */
    private static final JsonFactory JSON = new JsonFactory();

    /** One stream as the digest shows it. */
    record Stream(long bytes, long kept, boolean truncated) {

        static Stream of(Utf8Text text, Overflow overflow, long originalBytes) {
            return new Stream(originalBytes, overflow != null ? overflow.keptBytes() : text.length(), overflow != null);
        }
    }

    /** The worker's facts; the streams, artifacts and report status are null until the dispatch finished. */
    record Facts(
            String id,
            Dispatch.Status status,
            Integer exitCode,
            String error,
            Stream stdout,
            Stream stderr,
            Integer artifacts,
            ReportStatus reportStatus) {}

    /** The part of the report that fits. */
    private record Shown(
            String verdict, String confidence, String summary, int filesChanged, Map<String, Object> stats) {

        Shown withVerdict(String shown) {
            return new Shown(shown, confidence, summary, filesChanged, stats);
        }

        Shown with(String shownSummary, Map<String, Object> shownStats) {
            return new Shown(verdict, confidence, shownSummary, filesChanged, shownStats);
        }
    }

    private DispatchDigest() {}

    /** The digest of a finished dispatch. */
    static byte[] of(DispatchResult result, long stdoutBytes, long stderrBytes) {
        Facts facts = new Facts(
                result.dispatchId(),
                result.status(),
                result.exitCode(),
                result.error() == null ? null : result.error().code(),
                Stream.of(result.stdout(), result.stdoutOverflow(), stdoutBytes),
                Stream.of(result.stderr(), result.stderrOverflow(), stderrBytes),
                result.artifacts() == null ? 0 : result.artifacts().size(),
                result.reportStatus());
        return of(facts, result.report());
    }

    /** The artifact count a digest states; 0 when it states none. */
    public static int artifacts(byte[] digest) {
        try (JsonParser parser = JSON.createParser(digest)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return 0;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (field.equals("artifacts")) {
                    return value == JsonToken.VALUE_NUMBER_INT ? parser.getIntValue() : 0;
                }
                parser.skipChildren();
            }
            return 0;
        } catch (IOException e) {
            return 0; // the worker wrote it; a digest it cannot read states nothing
        }
    }

    /** The digest of a dispatch that has not finished: its status, and nothing else known. */
    static byte[] unfinished(String id, Dispatch.Status status) {
        return of(new Facts(id, status, null, null, null, null, null, null), null);
    }

    static byte[] of(Facts facts, AgentReport report) {
        byte[] bare = write(facts, null);
        if (report == null) {
            return bare;
        }
        Shown empty = new Shown(
                report.verdict() == null ? null : "",
                report.confidence(),
                "",
                report.filesChanged().size(),
                Map.of());
        int skeletonSize = size(facts, empty);
        if (!BUDGET.fits(skeletonSize)) {
            return bare; // only with the longest ids and counts of petabytes
        }
        Shown skeleton = report.verdict() == null
                ? empty
                : empty.withVerdict(new JsonBudget(Math.min(MAX_BYTES, skeletonSize + VERDICT_ROOM))
                        .longest(report.verdict(), VERDICT_CHARS, CUT, v -> size(facts, empty.withVerdict(v))));
        Map<String, Object> stats = report.stats();
        int statsRoom = stats.isEmpty()
                ? 0
                : Math.min(STATS_ROOM, size(facts, skeleton.with("", stats)) - size(facts, skeleton));
        String summary = BUDGET.less(statsRoom)
                .longest(report.summary(), SUMMARY_CHARS, CUT, text -> size(facts, skeleton.with(text, Map.of())));
        int kept = BUDGET.most(stats.size(), n -> size(facts, skeleton.with(summary, first(stats, n))));
        return write(facts, skeleton.with(summary, first(stats, kept)));
    }

    /** The first {@code n} entries, in their order. */
    private static Map<String, Object> first(Map<String, Object> stats, int n) {
        Map<String, Object> first = new LinkedHashMap<>();
        stats.entrySet().stream().limit(n).forEach(stat -> first.put(stat.getKey(), stat.getValue()));
        return first;
    }

    private static int size(Facts facts, Shown report) {
        return write(facts, report).length;
    }

    private static byte[] write(Facts f, Shown report) {
        return CompactJson.object(gen -> {
            gen.writeStringField("id", DispatchKey.idOf(f.id()));
            gen.writeStringField("tenant", DispatchKey.tenantOf(f.id()));
            gen.writeStringField("status", f.status().wire());
            writeInteger(gen, "exitCode", f.exitCode());
            gen.writeStringField("error", f.error());
            writeStream(gen, "stdout", f.stdout());
            writeStream(gen, "stderr", f.stderr());
            writeInteger(gen, "artifacts", f.artifacts());
            gen.writeStringField(
                    "reportStatus",
                    f.reportStatus() == null ? null : f.reportStatus().wire());
            gen.writeFieldName("report");
            if (report == null) {
                gen.writeNull();
            } else {
                writeReport(gen, report);
            }
            gen.writeObjectFieldStart("links");
            gen.writeStringField("self", DispatchLinks.self(f.id()));
            gen.writeEndObject();
        });
    }

    private static void writeReport(JsonGenerator gen, Shown report) throws IOException {
        gen.writeStartObject();
        gen.writeStringField("verdict", report.verdict());
        gen.writeStringField("confidence", report.confidence());
        gen.writeStringField("summary", report.summary());
        gen.writeNumberField("filesChanged", report.filesChanged());
        gen.writeObjectFieldStart("stats");
        for (Map.Entry<String, Object> stat : report.stats().entrySet()) {
            if (stat.getValue() instanceof ReportNumber number) {
                gen.writeFieldName(stat.getKey());
                gen.writeNumber(number.text());
            } else if (stat.getValue() instanceof Number number) { // a report read back from the store
                gen.writeFieldName(stat.getKey());
                gen.writeNumber(number.toString());
            } else {
                gen.writeStringField(stat.getKey(), String.valueOf(stat.getValue()));
            }
        }
        gen.writeEndObject();
        gen.writeEndObject();
    }

    private static void writeInteger(JsonGenerator gen, String name, Integer value) throws IOException {
        gen.writeFieldName(name);
        if (value == null) {
            gen.writeNull();
        } else {
            gen.writeNumber(value);
        }
    }

    private static void writeStream(JsonGenerator gen, String name, Stream stream) throws IOException {
        gen.writeFieldName(name);
        if (stream == null) {
            gen.writeNull();
            return;
        }
        gen.writeStartObject();
        gen.writeNumberField("bytes", stream.bytes());
        gen.writeNumberField("kept", stream.kept());
        gen.writeBooleanField("truncated", stream.truncated());
        gen.writeEndObject();
    }
}
