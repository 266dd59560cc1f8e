package dev.sluice.actions.reading;

import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonToken;

/**
 * What the reader knows of the place it is at in a body: which fields hold
 * what, and how many entries an array or an object there may hold. Anything
 * it does not describe is read within the document's own limits alone; a
 * value of the wrong kind is left for binding to refuse.
 */
final class BodyShape {

    enum Kind {
        /** An object whose named fields have shapes of their own; it may bound its entries. */
        OBJECT,
        /** An array whose items share one shape; it may bound how many. */
        ARRAY,
        /** Free-form, within a budget of values and depth of its own. */
        METADATA,
        /** Anything, within the document's limits. */
        FREE,
        /** An array of one shape or a single object of another, told apart by the first token. */
        EITHER
    }

    static final BodyShape FREE = new BodyShape(Kind.FREE, Map.of(), null, null, 0, null, false);
    static final BodyShape METADATA = new BodyShape(Kind.METADATA, Map.of(), null, null, 0, null, false);

    private final Kind kind;
    private final Map<String, BodyShape> fields;
    private final BodyShape items;
    private final BodyShape single;
    private final int most;
    private final String tooMany;
    private final boolean namesFrom;

    private BodyShape(
            Kind kind,
            Map<String, BodyShape> fields,
            BodyShape items,
            BodyShape single,
            int most,
            String tooMany,
            boolean namesFrom) {
        this.kind = kind;
        this.fields = fields;
        this.items = items;
        this.single = single;
        this.most = most;
        this.tooMany = tooMany;
        this.namesFrom = namesFrom;
    }

    /** A dispatch request (docs/api.md, section 3). */
    static BodyShape dispatch(BodyLimits limits) {
        return object(dispatchFields(limits), false);
    }

    /** A group request (docs/api.md, section 2.9): its members are dispatch requests. */
    static BodyShape group(BodyLimits limits) {
        return object(groupFields(limits), false);
    }

    /**
     * A JSON-RPC message to the MCP server, or a batch of them: the arguments
     * of a tool call are read as either request, since the tool's name may
     * come after them, and fields under them are named as the tools name them.
     */
    static BodyShape mcpMessage(BodyLimits limits) {
        Map<String, BodyShape> arguments = dispatchFields(limits);
        arguments.putAll(groupFields(limits));
        BodyShape message =
                object(Map.of("params", object(Map.of("arguments", object(arguments, true)), false)), false);
        return new BodyShape(Kind.EITHER, Map.of(), array(0, null, message), message, 0, null, false);
    }

    private static Map<String, BodyShape> dispatchFields(BodyLimits limits) {
        Map<String, BodyShape> fields = new HashMap<>();
        fields.put(
                "command", array(BodyLimits.MAX_ITEMS, "has more than " + BodyLimits.MAX_ITEMS + " arguments", FREE));
        fields.put("env", entries(BodyLimits.MAX_ITEMS, "has more than " + BodyLimits.MAX_ITEMS + " variables"));
        fields.put("secrets", entries(BodyLimits.MAX_ITEMS, "has more than " + BodyLimits.MAX_ITEMS + " variables"));
        fields.put("metadata", METADATA);
        fields.put(
                "output",
                object(
                        Map.of(
                                "project",
                                array(
                                        BodyLimits.MAX_POINTERS,
                                        "has more than " + BodyLimits.MAX_POINTERS + " pointers",
                                        FREE)),
                        false));
        fields.put(
                "workspace",
                object(
                        Map.of(
                                "files",
                                array(
                                        limits.maxFiles(),
                                        "has more than " + limits.maxFiles()
                                                + " files, the most entries a workspace holds",
                                        FREE)),
                        false));
        return fields;
    }

    private static Map<String, BodyShape> groupFields(BodyLimits limits) {
        Map<String, BodyShape> fields = new HashMap<>();
        fields.put(
                "dispatches",
                array(limits.maxMembers(), "must hold 1 to " + limits.maxMembers() + " dispatches", dispatch(limits)));
        fields.put("metadata", METADATA);
        return fields;
    }

    private static BodyShape object(Map<String, BodyShape> fields, boolean namesFrom) {
        return new BodyShape(Kind.OBJECT, Map.copyOf(fields), null, null, 0, null, namesFrom);
    }

    private static BodyShape entries(int most, String tooMany) {
        return new BodyShape(Kind.OBJECT, Map.of(), null, null, most, tooMany, false);
    }

    private static BodyShape array(int most, String tooMany, BodyShape items) {
        return new BodyShape(Kind.ARRAY, Map.of(), items, null, most, tooMany, false);
    }

    /** The shape of a container that starts with {@code start} where this shape is expected. */
    BodyShape opened(JsonToken start) {
        return switch (kind) {
            case EITHER -> start == JsonToken.START_ARRAY ? items : single;
            case OBJECT -> start == JsonToken.START_OBJECT ? this : FREE;
            case ARRAY -> start == JsonToken.START_ARRAY ? this : FREE;
            case METADATA, FREE -> this;
        };
    }

    /** The shape of this object's field {@code name}. */
    BodyShape field(String name) {
        return kind == Kind.OBJECT ? fields.getOrDefault(name, FREE) : this;
    }

    /** The shape of this array's items. */
    BodyShape item() {
        return kind == Kind.ARRAY ? items : this;
    }

    Kind kind() {
        return kind;
    }

    /** The most entries (object) or items (array); 0 when unbounded. */
    int most() {
        return most;
    }

    /** What a refusal says when {@link #most()} is passed. */
    String tooMany() {
        return tooMany;
    }

    /** Whether fields under it are named from it, as the MCP tools name their arguments. */
    boolean namesFrom() {
        return namesFrom;
    }

    /** Whether it has shapes below it: past one that has none, a refusal names the field it came in by. */
    boolean known() {
        return kind == Kind.OBJECT || kind == Kind.ARRAY || kind == Kind.EITHER;
    }
}
