package dev.sluice.record;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToIntFunction;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import dev.sluice.output.Overflow;
import dev.sluice.output.Utf8Text;
import dev.sluice.report.AgentReport;
import dev.sluice.report.Cut;
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
            String verdict, String confidence, String summary, int filesChanged, Map<String, Object> stats) {}

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
        if (write(facts, empty).length > MAX_BYTES) {
            return bare; // only with the longest ids and counts of petabytes
        }
        Shown skeleton = report.verdict() == null
                ? empty
                : withVerdict(
                        empty,
                        longest(
                                report.verdict(),
                                VERDICT_CHARS,
                                v -> write(facts, withVerdict(empty, v)).length,
                                Math.min(MAX_BYTES, write(facts, empty).length + VERDICT_ROOM)));
        Map<String, Object> stats = report.stats();
        int statsRoom = stats.isEmpty()
                ? 0
                : Math.min(STATS_ROOM, write(facts, with(skeleton, "", stats)).length - write(facts, skeleton).length);
        String summary = longest(
                report.summary(),
                SUMMARY_CHARS,
                text -> write(facts, with(skeleton, text, Map.of())).length,
                MAX_BYTES - statsRoom);
        Map<String, Object> kept = new LinkedHashMap<>();
        for (Map.Entry<String, Object> stat : stats.entrySet()) {
            kept.put(stat.getKey(), stat.getValue());
            if (write(facts, with(skeleton, summary, kept)).length > MAX_BYTES) {
                kept.remove(stat.getKey());
                break;
            }
        }
        return write(facts, with(skeleton, summary, kept));
    }

    /**
     * The longest start of {@code full}, at most {@code maxChars} characters and
     * ending with the cut mark when cut, whose digest {@code size} is within
     * {@code limit}; empty when not even the mark fits.
     */
    private static String longest(String full, int maxChars, ToIntFunction<String> size, int limit) {
        String clean = Cut.wellFormed(full);
        int total = clean.codePointCount(0, clean.length());
        if (total <= maxChars && size.applyAsInt(clean) <= limit) {
            return clean;
        }
        int low = 0; // characters kept before the mark
        int high = Math.min(total, maxChars) - 1;
        String best = "";
        while (low <= high) {
            int mid = (low + high) >>> 1;
            String candidate = clean.substring(0, clean.offsetByCodePoints(0, mid)) + CUT;
            if (size.applyAsInt(candidate) <= limit) {
                best = candidate;
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return best;
    }

    private static Shown withVerdict(Shown s, String verdict) {
        return new Shown(verdict, s.confidence(), s.summary(), s.filesChanged(), s.stats());
    }

    private static Shown with(Shown s, String summary, Map<String, Object> stats) {
        return new Shown(s.verdict(), s.confidence(), summary, s.filesChanged(), stats);
    }

    private static byte[] write(Facts f, Shown report) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(MAX_BYTES);
        try (JsonGenerator gen = JSON.createGenerator(out)) {
            gen.writeStartObject();
            gen.writeStringField("id", f.id());
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
            gen.writeObjectFieldStart("links");
            gen.writeStringField("self", DispatchLinks.self(f.id()));
            gen.writeEndObject();
            gen.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // writing to memory
        }
        return out.toByteArray();
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
