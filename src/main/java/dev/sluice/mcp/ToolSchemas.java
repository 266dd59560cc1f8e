package dev.sluice.mcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sluice.actions.DispatchRequest;
import dev.sluice.actions.GroupRequest;

/** What each tool says it does and takes (docs/api.md, section 2.14). */
final class ToolSchemas {

    private static final Map<String, String> DESCRIPTIONS = Map.of(
            "dispatch_subagent",
            "Run a sub-agent in a container: the same request as POST /v1/dispatches (image required; command, "
                    + "input, env, secrets, timeout, resources, output caps...), checked the same way. Waits up to "
                    + "'wait' seconds for it to end, then answers with its digest (status, exit code, the agent's "
                    + "verdict and summary) and whether the id replayed an earlier request.",
            "get_result",
            "A dispatch's digest (at most 512 bytes): status, exit code, the agent's reported verdict, confidence "
                    + "and summary, the streams' sizes. With full=true the whole result: the agent's report first, "
                    + "then the captured stdout and stderr as evidence, cut in the middle to fit the answer budget "
                    + "(what was left out is named in 'omitted').",
            "read_log",
            "A byte range of a dispatch's full stdout or stderr (not only what the result kept), masked. Answers "
                    + "with the text, nextOffset to read on from, and end=true once it reached the end of the log.",
            "cancel",
            "Cancel a dispatch; idempotent. A queued one ends at once, a running one is stopped (SIGTERM, then "
                    + "SIGKILL) and ends cancelled: stopping=true until then.",
            "list_dispatches",
            "Dispatches, newest first, one page at a time; pass the answer's 'after' to read the next page.",
            "dispatch_group",
            "Run several sub-agents as one group: the same request as POST /v1/dispatch-groups (dispatches: a list "
                    + "of dispatch requests; callbackUrl, maxDigestBytes, metadata), checked the same way and "
                    + "accepted whole or not at all. Answers with the group's record: each member's id, status "
                    + "and digest.",
            "get_group",
            "A dispatch group's record: running until every member has ended, then finished; each member's id, "
                    + "status and digest.");

    private static final String RESULT = """
            {"type": "object", "additionalProperties": false, "required": ["id"], "properties": {
              "id": {"type": "string", "description": "the dispatch's id"},
              "full": {"type": "boolean", "description": "the whole result rather than the digest; false by default"}}}""";

    private static final String LOG = """
            {"type": "object", "additionalProperties": false, "required": ["id", "stream"], "properties": {
              "id": {"type": "string", "description": "the dispatch's id"},
              "stream": {"type": "string", "enum": ["stdout", "stderr"]},
              "offset": {"type": "integer", "minimum": 0, "description": "the first byte; 0 by default"},
              "limit": {"type": "integer", "minimum": 1,
                        "description": "the most bytes to read; the answer budget (%d) by default. What is read but \
            over the budget is not shown: read on from nextOffset"}}}""";

    private static final String ID = """
            {"type": "object", "additionalProperties": false, "required": ["id"], "properties": {
              "id": {"type": "string", "description": "the dispatch's id"}}}""";

    private static final String LIST = """
            {"type": "object", "additionalProperties": false, "properties": {
              "status": {"type": "string",
                         "enum": ["queued", "starting", "running", "succeeded", "failed", "timed_out", "cancelled", "error"],
                         "description": "only dispatches in this status"},
              "limit": {"type": "integer", "minimum": 1, "description": "page size; 20 by default, at most 100"},
              "after": {"type": "string", "description": "the 'after' of the previous answer"}}}""";

    private final Map<String, ObjectNode> inputs;

    ToolSchemas(ObjectMapper json, Duration maxWait, int budget) {
        ObjectNode dispatch = RequestSchema.of(DispatchRequest.class, json);
        ((ObjectNode) dispatch.get("properties"))
                .putObject("wait")
                .put("type", "integer")
                .put("minimum", 0)
                .put("maximum", maxWait.toSeconds())
                .put("description", "seconds to wait for the dispatch to end before answering; 0 by default");
        this.inputs = Map.of(
                "dispatch_subagent", dispatch,
                "get_result", parse(json, RESULT),
                "read_log", parse(json, LOG.formatted(budget)),
                "cancel", parse(json, ID),
                "list_dispatches", parse(json, LIST),
                "dispatch_group", RequestSchema.of(GroupRequest.class, json),
                "get_group", parse(json, ID.replace("the dispatch's id", "the group's id")));
    }

    String description(String tool) {
        return DESCRIPTIONS.get(tool);
    }

    ObjectNode input(String tool) {
        return inputs.get(tool);
    }

    private static ObjectNode parse(ObjectMapper json, String schema) {
        try {
            return (ObjectNode) json.readTree(schema);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
