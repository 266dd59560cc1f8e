package dev.sluice.output;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;

/**
 * Makes a JSON document that does not fit its cap fit, in a fixed order, least
 * destructive first, and records every step (ADR 0031): the document rewritten
 * without insignificant whitespace, with only the fields the dispatch named
 * kept in each object of an array when it named any ({@code project}); then
 * whole elements dropped from the middle of the largest array, one placeholder
 * element standing for them ({@code drop-elements}); and only when that is not
 * enough, the stream's head and tail as text ({@code text}). What the first two
 * return is always one valid JSON document. The document is read with Jackson's
 * streaming parser, never as a tree, projected elements included
 * ({@link Projection}).
 */
public final class JsonReducer {

    private static final JsonFactory JSON = JsonValues.FACTORY;

    private JsonReducer() {}

    /** Whether the bytes are exactly one JSON value, whitespace around it allowed. */
    public static boolean isDocument(byte[] bytes) {
        return JsonValues.isOneValue(bytes, 0, bytes.length);
    }

    /**
     * The stream as the dispatch gets it when it asked for {@code json} and the
     * whole document is at hand.
     *
     * @param asText   the stream captured as text: what is returned when the
     *                 document is not JSON, or cannot be made to fit
     * @param document the whole stream, masked
     * @param project  JSON Pointers of the fields to keep in each object of an array; may be empty
     */
    public static CapturedOutput reduce(
            CapturedOutput asText, byte[] document, int cap, String nonce, List<String> project) {
        if (asText.overflow() == null) {
            return isDocument(asText.text().bytes())
                    ? withFormat(asText, FormatOutcome.as(OutputFormat.JSON))
                    : asText(asText, FormatOutcome.INVALID_JSON, "the stream is not one JSON document");
        }
        if (!isDocument(document)) {
            return asText(asText, FormatOutcome.INVALID_JSON, "the stream is not one JSON document");
        }
        List<Overflow.Reduction> steps = new ArrayList<>();
        byte[] current;
        try {
            current = rewrite(document, project, steps);
            if (current.length > cap) {
                current = dropElements(current, cap, nonce, steps);
            }
        } catch (IOException e) {
            // The parser's message quotes the document, which the agent wrote: the detail is the worker's alone.
            return asText(asText, FormatOutcome.INVALID_JSON, "the document could not be read as JSON");
        }
        if (current == null) {
            return asText(asText, FormatOutcome.OVER_CAP, "no reduction made the document fit the cap");
        }
        long original = asText.originalBytes();
        Overflow overflow = new Overflow(
                original,
                current.length,
                Math.max(0, original - current.length),
                nonce,
                OutputFormat.JSON,
                null,
                null,
                null,
                List.copyOf(steps));
        return new CapturedOutput(
                Utf8Text.wrap(current),
                original,
                overflow,
                asText.digest(),
                FormatOutcome.as(OutputFormat.JSON),
                asText.witness());
    }

    /** The text capture, saying why it is text: with {@code format: text} in its overflow when it has one. */
    public static CapturedOutput asText(CapturedOutput text, String fallback, String detail) {
        Overflow o = text.overflow();
        Overflow overflow = o == null
                ? null
                : new Overflow(
                        o.originalBytes(),
                        o.keptBytes(),
                        o.droppedBytes(),
                        o.nonce(),
                        OutputFormat.TEXT,
                        null,
                        null,
                        null,
                        List.of(new Overflow.Reduction(Overflow.Reduction.TEXT, null, null, null)));
        return new CapturedOutput(
                text.text(),
                text.originalBytes(),
                overflow,
                text.digest(),
                FormatOutcome.text(OutputFormat.JSON, fallback, detail),
                text.witness());
    }

    private static CapturedOutput withFormat(CapturedOutput output, FormatOutcome format) {
        return new CapturedOutput(
                output.text(), output.originalBytes(), output.overflow(), output.digest(), format, output.witness());
    }

    /** Step (a), or its whitespace-only form: the document written compactly, projected when asked. */
    private static byte[] rewrite(byte[] document, List<String> project, List<Overflow.Reduction> steps)
            throws IOException {
        Projection projection =
                new Projection(project.stream().map(JsonPointer::compile).toList());
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(32, document.length / 2));
        long[] projected = {0};
        try (JsonParser parser = JSON.createParser(document);
                JsonGenerator generator = JSON.createGenerator(out)) {
            parser.nextToken();
            copy(document, parser, generator, projection, false, projected);
        }
        steps.add(
                projection.isEmpty()
                        ? new Overflow.Reduction(Overflow.Reduction.COMPACT, null, null, null)
                        : new Overflow.Reduction(Overflow.Reduction.PROJECT, null, projected[0], null));
        return out.toByteArray();
    }

    /** Copies the value at the parser's current token, projecting each object that is an array's element. */
    private static void copy(
            byte[] document,
            JsonParser parser,
            JsonGenerator generator,
            Projection projection,
            boolean element,
            long[] projected)
            throws IOException {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.START_OBJECT && element && !projection.isEmpty()) {
            projection.write(document, parser, generator);
            projected[0]++;
        } else if (token == JsonToken.START_OBJECT) {
            generator.writeStartObject();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                generator.writeFieldName(parser.currentName());
                parser.nextToken();
                copy(document, parser, generator, projection, false, projected);
            }
            generator.writeEndObject();
        } else if (token == JsonToken.START_ARRAY) {
            generator.writeStartArray();
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                copy(document, parser, generator, projection, true, projected);
            }
            generator.writeEndArray();
        } else {
            generator.copyCurrentEventExact(parser);
        }
    }

    /**
     * Step (b): keeps the first and last elements of the largest array that fit,
     * a quarter of the room to the head, and puts one placeholder element in
     * place of the rest. {@code null} when even an array of just the
     * placeholder would not fit.
     */
    private static byte[] dropElements(byte[] compact, int cap, String nonce, List<Overflow.Reduction> steps)
            throws IOException {
        LargestArray array = LargestArray.find(compact);
        if (array == null) {
            return null;
        }
        int[] starts = array.elementStarts(compact);
        int count = starts.length;
        long outside = compact.length - (long) (array.end() - array.start());
        String placeholderFor = "{\"sluice.truncated\":{\"dropped\":" + count + ",\"nonce\":\"" + nonce + "\"}}";
        long room = cap - outside - placeholderFor.length();
        if (room < 0) {
            return null;
        }
        long headRoom = room / OutputCollector.HEAD_SHARE_DIVISOR;
        int head = 0;
        long used = 0;
        while (head < count && used + span(starts, array.end(), head) + 1 <= headRoom) {
            used += span(starts, array.end(), head++) + 1;
        }
        int tail = 0;
        while (head + tail < count && used + span(starts, array.end(), count - 1 - tail) + 1 <= room) {
            used += span(starts, array.end(), count - 1 - tail++) + 1;
        }
        int dropped = count - head - tail;
        String placeholder = "{\"sluice.truncated\":{\"dropped\":" + dropped + ",\"nonce\":\"" + nonce + "\"}}";
        ByteArrayOutputStream out = new ByteArrayOutputStream(cap);
        out.write(compact, 0, array.start());
        for (int i = 0; i < head; i++) {
            out.write(compact, starts[i], span(starts, array.end(), i));
            out.write(',');
        }
        out.writeBytes(placeholder.getBytes(StandardCharsets.US_ASCII));
        for (int i = count - tail; i < count; i++) {
            out.write(',');
            out.write(compact, starts[i], span(starts, array.end(), i));
        }
        out.write(compact, array.end(), compact.length - array.end());
        steps.add(new Overflow.Reduction(
                Overflow.Reduction.DROP_ELEMENTS, array.pointer(), (long) count, (long) dropped));
        return out.toByteArray();
    }

    /** The bytes of element {@code i}: up to the comma before the next one, or the array's end. */
    private static int span(int[] starts, int arrayEnd, int i) {
        return (i + 1 < starts.length ? starts[i + 1] - 1 : arrayEnd) - starts[i];
    }

    /**
     * The array whose elements take the most bytes in a compact document.
     *
     * @param pointer its JSON Pointer
     * @param start   the offset just after its {@code [}
     * @param end     the offset of its {@code ]}
     * @param ordinal which array it is, counting from 0 in document order
     * @param count   its elements
     */
    private record LargestArray(String pointer, int start, int end, int ordinal, int count) {

        static LargestArray find(byte[] compact) throws IOException {
            LargestArray largest = null;
            List<int[]> open = new ArrayList<>(); // {start, ordinal, count} of each array being read
            List<String> pointers = new ArrayList<>();
            int ordinal = 0;
            try (JsonParser parser = JSON.createParser(compact)) {
                for (JsonToken t = parser.nextToken(); t != null; t = parser.nextToken()) {
                    JsonStreamContext around = t == JsonToken.START_ARRAY || t == JsonToken.START_OBJECT
                            ? parser.getParsingContext().getParent()
                            : parser.getParsingContext();
                    if (!open.isEmpty() && around.inArray() && isValueStart(t)) {
                        open.get(open.size() - 1)[2]++;
                    }
                    if (t == JsonToken.START_ARRAY) {
                        int start = (int) parser.currentTokenLocation().getByteOffset() + 1;
                        open.add(new int[] {start, ordinal++, 0});
                        pointers.add(parser.getParsingContext()
                                .getParent()
                                .pathAsPointer()
                                .toString());
                    } else if (t == JsonToken.END_ARRAY) {
                        int[] a = open.remove(open.size() - 1);
                        String pointer = pointers.remove(pointers.size() - 1);
                        int end = (int) parser.currentTokenLocation().getByteOffset();
                        if (a[2] > 0 && (largest == null || end - a[0] > largest.end - largest.start)) {
                            largest = new LargestArray(pointer, a[0], end, a[1], a[2]);
                        }
                    }
                }
            }
            return largest;
        }

        private static boolean isValueStart(JsonToken t) {
            return t.isScalarValue() || t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY;
        }

        /** Where each of its elements starts. */
        int[] elementStarts(byte[] compact) throws IOException {
            int[] starts = new int[count];
            int seen = -1;
            int found = 0;
            try (JsonParser parser = JSON.createParser(compact)) {
                for (JsonToken t = parser.nextToken(); t != null && found < count; t = parser.nextToken()) {
                    if (t == JsonToken.START_ARRAY && ++seen == ordinal) {
                        for (JsonToken e = parser.nextToken(); e != JsonToken.END_ARRAY; e = parser.nextToken()) {
                            starts[found++] =
                                    (int) parser.currentTokenLocation().getByteOffset();
                            parser.skipChildren();
                        }
                    }
                }
            }
            return starts;
        }
    }
}
