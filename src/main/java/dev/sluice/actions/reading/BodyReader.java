package dev.sluice.actions.reading;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads request bodies within {@link BodyLimits} (ADR 0076): each token is
 * checked as the parser reaches it and before binding builds anything of it,
 * so a body past a bound is refused with what it has cost so far, never with
 * what it describes. Binding is the API's own (the mapper's strict settings),
 * on a parser of the mapper's own dialect with Jackson's
 * {@link StreamReadConstraints} beneath the counts as a second line: the
 * document's length, its strings, numbers and keys, and depth and tokens
 * just past the reader's own bounds.
 */
public final class BodyReader {

    /** Which request a body is. */
    public enum Shape {
        /** POST /v1/dispatches, and MCP {@code dispatch_subagent}'s arguments. */
        DISPATCH,
        /** POST /v1/dispatch-groups, and MCP {@code dispatch_group}'s arguments. */
        GROUP
    }

    private final ObjectMapper json;
    private final long maxBytes;
    private final JsonFactory requests;
    private final JsonFactory messages;
    private final Map<Shape, BodyShape> shapes;
    private final BodyShape message;

    public BodyReader(ObjectMapper json, BodyLimits limits) {
        this.json = json;
        this.maxBytes = limits.maxBytes();
        StreamReadConstraints constraints = StreamReadConstraints.builder()
                .maxDocumentLength(limits.maxBytes())
                .maxStringLength((int) Math.min(Integer.MAX_VALUE, limits.maxBytes()))
                .maxNumberLength(BodyLimits.MAX_NUMBER_LENGTH)
                .maxNameLength(BodyLimits.MAX_NAME_LENGTH)
                // Past the reader's own bounds, so that those answer first and name the field.
                .maxNestingDepth(BodyLimits.MAX_DEPTH + 1)
                .maxTokenCount(2L * BodyLimits.MAX_TOKENS)
                .build();
        // Keys a client makes up are not interned: the JVM's string table is no place for them.
        this.requests = json.getFactory()
                .copy()
                .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
                .setStreamReadConstraints(constraints);
        // The MCP server reads its messages with comments allowed (Quarkus's Vert.x codec): so must the scan
        // that goes before it, or a comment would end the scan where the server reads on.
        this.messages = requests.copy().configure(JsonReadFeature.ALLOW_JAVA_COMMENTS.mappedFeature(), true);
        this.shapes = Map.of(Shape.DISPATCH, BodyShape.dispatch(limits), Shape.GROUP, BodyShape.group(limits));
        this.message = BodyShape.mcpMessage(limits);
    }

    /**
     * A request body as {@code type}, or {@code null} for an empty body or
     * JSON {@code null}, charged to {@code grant} as its bytes arrive and as
     * its tokens are read, and refused past the most a body may be whatever
     * length it declared. A refusal closes the body first, which (RESTEasy's
     * stream does) reads it to its end, so that it is answered after the
     * client has sent it all.
     *
     * @throws BodyRefused past a bound, or past what {@code grant} may charge
     * @throws IOException what binding refuses (unknown fields, wrong types, not JSON), as Jackson says it
     */
    public <T> T read(InputStream body, Class<T> type, Shape shape, DecodingBudget.Grant grant) throws IOException {
        InputStream charged = new ChargedInput(body, grant, maxBytes);
        return bind(requests.createParser(charged), type, shapes.get(shape), grant);
    }

    /** As {@link #read(InputStream, Class, Shape, DecodingBudget.Grant)}, for a body already charged. */
    public <T> T read(String body, Class<T> type, Shape shape) throws JsonProcessingException {
        try {
            return bind(requests.createParser(body), type, shapes.get(shape), DecodingBudget.NONE);
        } catch (JsonProcessingException e) {
            throw e;
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a string has no I/O to fail
        }
    }

    /**
     * Reads a JSON-RPC message to the MCP server (or a batch of them) to its
     * end, building nothing, and charges {@code grant} for its tokens: the
     * check made before the MCP server builds a tree of it. A tool call's
     * {@code arguments} are held to a dispatch's and a group's bounds, and a
     * refusal names the argument. A message that is not JSON is left for the
     * MCP server, which reads exactly as far and answers it.
     *
     * @throws BodyRefused past a bound, or past what {@code grant} may charge
     */
    public void scanMcpMessage(InputStream body, DecodingBudget.Grant grant) {
        try (BoundedParser parser = new BoundedParser(messages.createParser(body), message, grant)) {
            while (parser.nextToken() != null) {
                // counted and checked as it goes
            }
            grant.atLeast(parser.tokens() * BodyLimits.TOKEN_BYTES);
        } catch (IOException notJson) {
            // The MCP server's own parse error answers it; it reads no further than this did.
        }
    }

    private <T> T bind(JsonParser raw, Class<T> type, BodyShape shape, DecodingBudget.Grant grant) throws IOException {
        try (BoundedParser parser = new BoundedParser(raw, shape, grant)) {
            if (parser.nextToken() == null) {
                return null;
            }
            return json.readerFor(type).readValue(parser);
        } catch (JsonMappingException e) {
            // Binding wraps what the parser threw inside a deserializer, with the path it was at.
            for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                if (cause instanceof BodyRefused refused) {
                    throw refused;
                }
            }
            throw e;
        }
    }
}
