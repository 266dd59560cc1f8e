package dev.sluice.output;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A jsonl result read as a consumer is told to read it (docs/api.md, 7.8):
 * line by line, each line a JSON value or text, the genuine marker records
 * being those whose {@code sluice.truncated.nonce} is the overflow record's.
 */
record JsonlOutput(List<String> lines, List<JsonNode> markers, int records, int textLines) {

    /** The reference for "one JSON value": Jackson's tree reader, refusing anything after the value. */
    static final ObjectMapper STRICT = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    static JsonlOutput read(String text, String nonce) {
        List<String> lines = splitLines(text);
        List<JsonNode> markers = new ArrayList<>();
        int records = 0;
        int textLines = 0;
        for (String line : lines) {
            JsonNode node = parse(line);
            if (node == null) {
                textLines++;
            } else if (nonce.equals(node.path("sluice.truncated").path("nonce").asText(null))) {
                markers.add(node.get("sluice.truncated"));
            } else {
                records++;
            }
        }
        return new JsonlOutput(lines, markers, records, textLines);
    }

    /** The lines, each with its newline (the last one without, when the text does not end one). */
    static List<String> splitLines(String text) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', start)) {
            lines.add(text.substring(start, i + 1));
            start = i + 1;
        }
        if (start < text.length()) {
            lines.add(text.substring(start));
        }
        return lines;
    }

    /** The line's one JSON value, or {@code null} when it is not exactly one. */
    static JsonNode parse(String line) {
        try {
            JsonNode node = STRICT.readTree(line);
            return node == null || node.isMissingNode() ? null : node;
        } catch (Exception e) {
            return null;
        }
    }

    /** The genuine marker that stands for the dropped middle, or {@code null}. */
    JsonNode middle() {
        return markers.stream().filter(m -> m.has("droppedRecords")).findFirst().orElse(null);
    }

    long oversizedMarkers() {
        return markers.stream().filter(m -> m.has("oversizedLine")).count();
    }
}
