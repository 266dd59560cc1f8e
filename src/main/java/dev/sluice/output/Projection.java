package dev.sluice.output;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonToken;

/**
 * The {@code project} step for one array element (ADR 0031, ADR 0054): the
 * fields its pointers name, at the same places, found by streaming over the
 * element and never held as a tree. An element of a hostile document can be
 * tens of mebibytes of small keys or one deep, wide value, and a tree of it
 * takes ten times its bytes; what is held here is one offset per pointer and
 * the few objects that lead to them, whatever the element's size. The values
 * named are copied from the document, token by token, as they are written.
 * Where a key repeats, its last value counts, as it would in a tree.
 */
final class Projection {

    private final List<String[]> paths;

    Projection(List<JsonPointer> pointers) {
        this.paths = pointers.stream().map(Projection::steps).toList();
    }

    boolean isEmpty() {
        return paths.isEmpty();
    }

    /**
     * Writes the projection of the object whose {@code START_OBJECT} is the
     * parser's current token, and leaves the parser at its {@code END_OBJECT}.
     * The parser must read {@code document} from its first byte: the values
     * kept are found again by their offsets in it.
     */
    void write(byte[] document, JsonParser parser, JsonGenerator generator) throws IOException {
        Value[] found = new Value[paths.size()];
        List<Integer> all = new ArrayList<>(paths.size());
        for (int i = 0; i < paths.size(); i++) {
            if (paths.get(i).length > 0) { // the whole element ("") names nothing to keep
                all.add(i);
            }
        }
        scan(parser, 0, all, found);
        writeObject(document, kept(found), generator);
    }

    /**
     * Reads the object at the parser's {@code START_OBJECT}, at {@code depth}
     * steps into the element, recording where each value of the {@code live}
     * pointers (those whose first steps lead here) starts; descends only where
     * a pointer goes on, and skips everything else unread.
     */
    private void scan(JsonParser parser, int depth, List<Integer> live, Value[] found) throws IOException {
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            List<Integer> deeper = null;
            for (int i : live) {
                String[] path = paths.get(i);
                if (!path[depth].equals(name)) {
                    continue;
                }
                found[i] = null; // a repeated key replaces all that was under it
                if (path.length == depth + 1) {
                    found[i] = Value.at(parser);
                } else if (value == JsonToken.START_OBJECT) {
                    if (deeper == null) {
                        deeper = new ArrayList<>();
                    }
                    deeper.add(i);
                }
            }
            if (deeper != null) {
                scan(parser, depth + 1, deeper, found);
            } else {
                parser.skipChildren();
            }
        }
    }

    /**
     * The objects of the projection, built in the pointers' order as a tree
     * of the element would give them: a {@link Value} is one kept from the
     * document; a pointer into a value already kept adds nothing.
     */
    private Map<String, Object> kept(Value[] found) {
        Map<String, Object> kept = new LinkedHashMap<>();
        for (int i = 0; i < found.length; i++) {
            if (found[i] == null) {
                continue;
            }
            String[] path = paths.get(i);
            Map<String, Object> into = kept;
            for (int k = 0; k < path.length - 1 && into != null; k++) {
                Object next = into.get(path[k]);
                into = next instanceof Value ? null : objectAt(into, path[k], next);
            }
            if (into != null) {
                into.put(path[path.length - 1], found[i]);
            }
        }
        return kept;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> objectAt(Map<String, Object> into, String name, Object next) {
        if (next instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        Map<String, Object> made = new LinkedHashMap<>();
        into.put(name, made);
        return made;
    }

    @SuppressWarnings("unchecked")
    private static void writeObject(byte[] document, Map<String, Object> object, JsonGenerator generator)
            throws IOException {
        generator.writeStartObject();
        for (Map.Entry<String, Object> field : object.entrySet()) {
            generator.writeFieldName(field.getKey());
            if (field.getValue() instanceof Value value) {
                value.copy(document, generator);
            } else {
                writeObject(document, (Map<String, Object>) field.getValue(), generator);
            }
        }
        generator.writeEndObject();
    }

    /**
     * A value kept: where it starts in the document, or for a number its text
     * (at most Jackson's limit on a number's length), since a number read on
     * its own from the middle of a document is not one JSON value.
     */
    private record Value(long offset, String number) {

        static Value at(JsonParser parser) throws IOException {
            return parser.currentToken().isNumeric()
                    ? new Value(-1, parser.getText())
                    : new Value(parser.currentTokenLocation().getByteOffset(), null);
        }

        /** Writes the value, token by token, numbers as they were written. */
        void copy(byte[] document, JsonGenerator generator) throws IOException {
            if (number != null) {
                generator.writeNumber(number);
                return;
            }
            int from = (int) offset;
            try (JsonParser value = JsonValues.FACTORY.createParser(document, from, document.length - from)) {
                int depth = 0;
                for (JsonToken t = value.nextToken(); t != null; t = value.nextToken()) {
                    generator.copyCurrentEventExact(value);
                    depth += t.isStructStart() ? 1 : t.isStructEnd() ? -1 : 0;
                    if (depth == 0) {
                        return;
                    }
                }
            }
        }
    }

    private static String[] steps(JsonPointer pointer) {
        List<String> steps = new ArrayList<>();
        for (JsonPointer p = pointer; !p.matches(); p = p.tail()) {
            steps.add(p.getMatchingProperty());
        }
        return steps.toArray(String[]::new);
    }
}
