package dev.sluice.actions.reading;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.util.JsonParserDelegate;

import dev.sluice.json.TextCut;

/**
 * A parser that counts as it reads and stops at the first token past a
 * bound, before binding builds anything of it: tokens in the body, its
 * depth, a group's members, the entries of {@code command}, {@code env},
 * {@code secrets}, {@code output.project} and {@code workspace.files}, and
 * the values and depth of each {@code metadata} (ADR 0076). Every token
 * binding asks for passes through {@link #nextToken()}, so nothing reaches
 * an object unchecked; every 4096 tokens the grant is asked to cover what
 * the tokens will become.
 */
final class BoundedParser extends JsonParserDelegate {

    /** The most characters of a key a refusal repeats: the key is the client's, and may be long. */
    private static final int NAMED_KEY_CHARS = 64;

    private static final int CHARGE_EVERY = 4096;

    private final BodyShape root;
    private final DecodingBudget.Grant grant;

    /** For each open container, by depth (the body's own value is at 1): its shape and how it came in. */
    private final BodyShape[] shapes = new BodyShape[BodyLimits.MAX_DEPTH + 1];

    private final boolean[] arrays = new boolean[BodyLimits.MAX_DEPTH + 1];
    private final String[] keys = new String[BodyLimits.MAX_DEPTH + 1];
    private final int[] indexes = new int[BodyLimits.MAX_DEPTH + 1];
    /** Items (array) or entries (object) seen so far in each open container. */
    private final int[] counts = new int[BodyLimits.MAX_DEPTH + 1];

    private int depth;
    private long tokens;
    /** The depth of the {@code metadata} object being read, 0 outside one, and the values seen in it. */
    private int metadataAt;

    private int metadataValues;
    /** The name of the field whose value comes next, and the key or index a value now starting came in by. */
    private String key;

    private String childKey;
    private int childIndex;

    BoundedParser(JsonParser parser, BodyShape root, DecodingBudget.Grant grant) {
        super(parser);
        this.root = root;
        this.grant = grant;
    }

    /** Tokens read so far. */
    long tokens() {
        return tokens;
    }

    @Override
    public JsonToken nextToken() throws IOException {
        JsonToken t;
        try {
            t = delegate.nextToken();
        } catch (StreamConstraintsException e) {
            // Only what this parser does not count itself gets here: a number, a key or a string too long.
            throw BodyRefused.tooLarge("the body holds a number longer than " + BodyLimits.MAX_NUMBER_LENGTH
                    + " characters or a key longer than " + BodyLimits.MAX_NAME_LENGTH
                    + ", more than the worker reads; nothing was created");
        }
        if (t == null) {
            return null;
        }
        if (++tokens > BodyLimits.MAX_TOKENS) {
            throw BodyRefused.tooLarge("the body holds more than " + BodyLimits.MAX_TOKENS
                    + " JSON tokens (keys, values and brackets), more than the worker reads; nothing was created");
        }
        if (tokens % CHARGE_EVERY == 0) {
            grant.atLeast(tokens * BodyLimits.TOKEN_BYTES);
        }
        switch (t) {
            case FIELD_NAME -> entry();
            case START_OBJECT, START_ARRAY -> opened(t);
            case END_OBJECT, END_ARRAY -> closed();
            default -> value();
        }
        return t;
    }

    private void entry() throws IOException {
        key = delegate.currentName();
        BodyShape shape = shapes[depth];
        if (!arrays[depth] && shape.most() > 0 && ++counts[depth] > shape.most()) {
            throw BodyRefused.invalid(label(depth, false), shape.tooMany());
        }
    }

    /** A value starts in the open container: counted there, and its shape returned. */
    private BodyShape value() {
        if (depth == 0) {
            childKey = null;
            childIndex = -1;
            return root;
        }
        if (metadataAt > 0 && ++metadataValues > BodyLimits.METADATA_VALUES) {
            throw BodyRefused.invalid(
                    label(metadataAt, false), "holds more than " + BodyLimits.METADATA_VALUES + " values");
        }
        BodyShape parent = shapes[depth];
        if (arrays[depth]) {
            int index = counts[depth]++;
            if (parent.most() > 0 && index >= parent.most()) {
                throw BodyRefused.invalid(label(depth, false), parent.tooMany());
            }
            childKey = null;
            childIndex = index;
            return parent.item();
        }
        childKey = key;
        childIndex = -1;
        return parent.field(key);
    }

    private void opened(JsonToken start) {
        BodyShape expected = value();
        int next = depth + 1;
        if (next > BodyLimits.MAX_DEPTH) {
            throw BodyRefused.invalid(
                    label(depth, true), "is nested more than " + BodyLimits.MAX_DEPTH + " levels deep");
        }
        if (metadataAt > 0 && next - metadataAt > BodyLimits.METADATA_DEPTH) {
            throw BodyRefused.invalid(
                    label(metadataAt, false), "is nested more than " + BodyLimits.METADATA_DEPTH + " levels deep");
        }
        depth = next;
        shapes[depth] = expected.opened(start);
        arrays[depth] = start == JsonToken.START_ARRAY;
        keys[depth] = childKey;
        indexes[depth] = childIndex;
        counts[depth] = 0;
        if (metadataAt == 0 && shapes[depth].kind() == BodyShape.Kind.METADATA) {
            metadataAt = depth;
            metadataValues = 0;
        }
    }

    private void closed() {
        if (depth == metadataAt) {
            metadataAt = 0;
        }
        depth--;
    }

    /**
     * The dotted path of the container at {@code upTo} (and of the value
     * starting in it, with {@code child}), as refusals name fields: from the
     * last container that names its fields, down to the first one the shape
     * has nothing below (metadata, a field the contract does not know), which
     * is named whole.
     */
    private String label(int upTo, boolean child) {
        int from = 1;
        for (int i = upTo; i >= 1; i--) {
            if (shapes[i].namesFrom()) {
                from = i + 1;
                break;
            }
        }
        StringBuilder path = new StringBuilder();
        for (int i = from; i <= upTo; i++) {
            segment(path, keys[i], indexes[i]);
            if (!shapes[i].known()) {
                return path.toString();
            }
        }
        if (child) {
            segment(path, childKey, childIndex);
        }
        return path.toString();
    }

    private static void segment(StringBuilder path, String key, int index) {
        if (key == null && index < 0) {
            return;
        }
        if (!path.isEmpty()) {
            path.append('.');
        }
        if (key != null) {
            path.append(TextCut.toChars(key, NAMED_KEY_CHARS, "…")); // a key is the client's: named by its start
        } else {
            path.append(index);
        }
    }

    // What JsonParser builds on nextToken(), routed through it here: the delegate would go around it.

    @Override
    public String nextFieldName() throws IOException {
        return nextToken() == JsonToken.FIELD_NAME ? currentName() : null;
    }

    @Override
    public boolean nextFieldName(SerializableString name) throws IOException {
        return nextToken() == JsonToken.FIELD_NAME && name.getValue().equals(currentName());
    }

    @Override
    public String nextTextValue() throws IOException {
        return nextToken() == JsonToken.VALUE_STRING ? getText() : null;
    }

    @Override
    public int nextIntValue(int defaultValue) throws IOException {
        return nextToken() == JsonToken.VALUE_NUMBER_INT ? getIntValue() : defaultValue;
    }

    @Override
    public long nextLongValue(long defaultValue) throws IOException {
        return nextToken() == JsonToken.VALUE_NUMBER_INT ? getLongValue() : defaultValue;
    }

    @Override
    public Boolean nextBooleanValue() throws IOException {
        JsonToken t = nextToken();
        if (t == JsonToken.VALUE_TRUE) {
            return Boolean.TRUE;
        }
        return t == JsonToken.VALUE_FALSE ? Boolean.FALSE : null;
    }

    @Override
    public JsonToken nextValue() throws IOException {
        JsonToken t = nextToken();
        return t == JsonToken.FIELD_NAME ? nextToken() : t;
    }

    @Override
    public JsonParser skipChildren() throws IOException {
        JsonToken t = currentToken();
        if (t != JsonToken.START_OBJECT && t != JsonToken.START_ARRAY) {
            return this;
        }
        for (int open = 1; open > 0; ) {
            JsonToken next = nextToken();
            if (next == null) {
                return this;
            }
            if (next.isStructStart()) {
                open++;
            } else if (next.isStructEnd()) {
                open--;
            }
        }
        return this;
    }
}
