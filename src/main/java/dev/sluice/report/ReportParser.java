package dev.sluice.report;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;

import dev.sluice.json.JsonSize;
import dev.sluice.json.TextCut;

/**
 * Reads an agent's report: checks it against the published schema
 * (docs/report.schema.json) and bounds it (docs/api.md, section 7.5). It walks
 * the JSON with a streaming reader and descends only where the schema has
 * structure, so a value nested where none may be ends the walk at once, at any
 * depth; the input is already bounded by its reader, so nothing here grows
 * with what the agent wrote beyond it. A report never makes this throw.
 */
public final class ReportParser {

    /** Ends a string of a report that was cut, inside its bound. */
    static final String CUT = "…[cut]";

    static final int SUMMARY_BYTES = 2048;
    static final int FINDINGS = 20;
    static final int FINDING_BYTES = 512;
    static final int VERDICT_BYTES = 128;
    static final int FILES = 100;
    static final int FILE_BYTES = 256;
    static final int STATS = 32;
    static final int STAT_KEY_CHARS = 64;
    static final int STAT_STRING_BYTES = 128;
    static final int NUMBER_CHARS = 64;
    /** The most a reason takes. */
    private static final int DETAIL_BYTES = 300;
    /** A reason quotes at most this much of what the agent wrote (a field's name). */
    private static final int QUOTED_CHARS = 64;

    static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .streamReadConstraints(
                    StreamReadConstraints.builder().maxNestingDepth(8).build())
            .build();

    private ReportParser() {}

    /** Reads a report file's bytes (secrets already masked). */
    public static ReportReading parse(byte[] json) {
        try (JsonParser parser = JSON.createParser(json)) {
            ReportReading reading = readObject(parser, ReportSource.FILE);
            if (reading.status() != ReportStatus.MALFORMED && parser.nextToken() != null) {
                return ReportReading.malformed(ReportSource.FILE, "content follows the report object");
            }
            return reading;
        } catch (IOException e) {
            return ReportReading.malformed(ReportSource.FILE, unreadable(e));
        }
    }

    /** Reads the report object that starts at the parser's next token; the parser is left after its end. */
    static ReportReading readObject(JsonParser parser, ReportSource source) throws IOException {
        try {
            return new Walk(parser, source).report();
        } catch (Invalid e) {
            return ReportReading.malformed(source, e.getMessage());
        } catch (JsonProcessingException e) {
            return ReportReading.malformed(source, unreadable(e));
        }
    }

    static String unreadable(IOException e) {
        // Jackson's message may quote the agent's text: keep it short.
        return e instanceof JsonProcessingException json
                ? TextCut.toBytes("is not valid JSON in UTF-8 (" + json.getOriginalMessage() + ")", DETAIL_BYTES, CUT)
                : "could not be read";
    }

    /** The report does not match the schema; the message names the field. */
    static final class Invalid extends Exception {
        Invalid(String message) {
            super(message, null, false, false);
        }
    }

    /** One walk over one report, collecting what it cut. */
    private static final class Walk {
        private final JsonParser parser;
        private final ReportSource source;
        private final List<String> cuts = new ArrayList<>();

        Walk(JsonParser parser, ReportSource source) {
            this.parser = parser;
            this.source = source;
        }

        ReportReading report() throws IOException, Invalid {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new Invalid("must be a JSON object");
            }
            String summary = null;
            List<String> findings = null;
            String confidence = null;
            String verdict = null;
            List<String> files = List.of();
            Map<String, Object> stats = Map.of();
            for (JsonToken t = parser.nextToken(); t == JsonToken.FIELD_NAME; t = parser.nextToken()) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (name) {
                    case "summary" -> summary = text("summary", value, SUMMARY_BYTES);
                    case "keyFindings" -> findings = texts("keyFindings", value, FINDINGS, FINDING_BYTES);
                    case "confidence" -> confidence = confidence(value);
                    case "verdict" ->
                        verdict = value == JsonToken.VALUE_NULL ? null : text("verdict", value, VERDICT_BYTES);
                    case "filesChanged" -> files = texts("filesChanged", value, FILES, FILE_BYTES);
                    case "stats" -> stats = stats(value);
                    default -> throw new Invalid(quote(name) + ": is not a known field");
                }
            }
            required("summary", summary);
            required("keyFindings", findings);
            required("confidence", confidence);
            AgentReport report = new AgentReport(summary, findings, confidence, verdict, files, stats);
            return cuts.isEmpty()
                    ? new ReportReading(ReportStatus.PRESENT, source, null, report)
                    : new ReportReading(ReportStatus.TRUNCATED, source, String.join("; ", cuts), report);
        }

        private String text(String field, JsonToken value, int maxBytes) throws IOException, Invalid {
            if (value != JsonToken.VALUE_STRING) {
                throw new Invalid(field + ": must be a string");
            }
            String text = TextCut.wellFormed(parser.getText());
            if (JsonSize.utf8(text) <= maxBytes) {
                return text;
            }
            cuts.add(field + " cut to " + maxBytes + " bytes");
            return TextCut.toBytes(text, maxBytes, CUT);
        }

        private List<String> texts(String field, JsonToken value, int maxItems, int maxBytes)
                throws IOException, Invalid {
            if (value != JsonToken.START_ARRAY) {
                throw new Invalid(field + ": must be an array of strings");
            }
            List<String> kept = new ArrayList<>();
            int given = 0;
            int cut = 0;
            for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
                if (t != JsonToken.VALUE_STRING) {
                    throw new Invalid(field + "." + given + ": must be a string");
                }
                if (given++ < maxItems) {
                    String text = TextCut.wellFormed(parser.getText());
                    if (JsonSize.utf8(text) > maxBytes) {
                        cut++;
                        text = TextCut.toBytes(text, maxBytes, CUT);
                    }
                    kept.add(text);
                }
            }
            if (given > maxItems) {
                cuts.add(field + ": " + given + " given, " + maxItems + " kept");
            }
            if (cut > 0) {
                cuts.add(cut + " of " + field + " cut to " + maxBytes + " bytes");
            }
            return List.copyOf(kept);
        }

        private String confidence(JsonToken value) throws IOException, Invalid {
            if (value != JsonToken.VALUE_STRING || !AgentReport.CONFIDENCES.contains(parser.getText())) {
                throw new Invalid("confidence: must be high, medium or low");
            }
            return parser.getText();
        }

        private Map<String, Object> stats(JsonToken value) throws IOException, Invalid {
            if (value != JsonToken.START_OBJECT) {
                throw new Invalid("stats: must be an object");
            }
            Map<String, Object> kept = new LinkedHashMap<>();
            int given = 0;
            int longNumbers = 0;
            int cut = 0;
            for (JsonToken t = parser.nextToken(); t == JsonToken.FIELD_NAME; t = parser.nextToken()) {
                String key = parser.currentName();
                int chars = key.codePointCount(0, key.length());
                if (chars < 1 || chars > STAT_KEY_CHARS) {
                    throw new Invalid("stats: a key must have 1 to " + STAT_KEY_CHARS + " characters");
                }
                JsonToken v = parser.nextToken();
                Object stat;
                if (v == JsonToken.VALUE_NUMBER_INT || v == JsonToken.VALUE_NUMBER_FLOAT) {
                    String number = parser.getText();
                    stat = number.length() <= NUMBER_CHARS ? new ReportNumber(number) : null;
                    longNumbers += stat == null ? 1 : 0;
                } else if (v == JsonToken.VALUE_STRING) {
                    String text = TextCut.wellFormed(parser.getText());
                    if (JsonSize.utf8(text) > STAT_STRING_BYTES) {
                        cut++;
                        text = TextCut.toBytes(text, STAT_STRING_BYTES, CUT);
                    }
                    stat = text;
                } else {
                    throw new Invalid("stats." + quote(key) + ": must be a number or a string");
                }
                if (stat != null && given++ < STATS) {
                    kept.put(TextCut.wellFormed(key), stat);
                }
            }
            if (given > STATS) {
                cuts.add("stats: " + given + " given, " + STATS + " kept");
            }
            if (cut > 0) {
                cuts.add(cut + " of stats cut to " + STAT_STRING_BYTES + " bytes");
            }
            if (longNumbers > 0) {
                cuts.add(longNumbers + " of stats dropped: numbers longer than " + NUMBER_CHARS + " characters");
            }
            return Collections.unmodifiableMap(kept);
        }

        private static void required(String field, Object value) throws Invalid {
            if (value == null) {
                throw new Invalid(field + ": is required");
            }
        }

        private static String quote(String agentText) {
            return TextCut.toChars(agentText, QUOTED_CHARS, "…");
        }
    }
}
