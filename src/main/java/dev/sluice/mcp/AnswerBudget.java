package dev.sluice.mcp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sluice.actions.DispatchListView;
import dev.sluice.actions.GroupView;
import dev.sluice.io.LogRange;
import dev.sluice.json.JsonBudget;
import dev.sluice.json.TextCut;

/**
 * Tool answers as JSON text of at most {@code sluice.mcp.max-result-bytes}
 * UTF-8 bytes, never more: what matters most comes first (the digest, the
 * agent's report), the raw output after it as evidence, cut in the middle
 * when it does not fit; and an answer that left something out says so in
 * {@code omitted}, with where to read it. What the agent wrote is marked as
 * its own ({@link AgentText}), within the same budget.
 */
final class AnswerBudget {

    /** Room for the digest (512 bytes) and what wraps it, whatever the setting says. */
    static final int MIN_BYTES = 1024;

    /** Kept free for the notes of {@code omitted}. */
    private static final int NOTE_ROOM = 512;

    /** The result's fields shown before the rest: the worker's verdict, then what the agent reported. */
    private static final List<String> FIRST =
            List.of("dispatchId", "status", "exitCode", "error", "reportStatus", "report", "workerSummary");

    private static final List<String> STREAMS = List.of("stdout", "stderr");

    private final int max;
    private final JsonBudget budget;
    private final ObjectMapper json;

    AnswerBudget(long maxBytes, ObjectMapper json) {
        if (maxBytes < MIN_BYTES) {
            // Like the output caps: a setting that cannot work stops the worker at start-up, naming itself.
            throw new IllegalArgumentException("sluice.mcp.max-result-bytes must be at least 1K (the digest and "
                    + "what wraps it), not " + maxBytes + " bytes");
        }
        this.max = (int) Math.min(Integer.MAX_VALUE / 2, maxBytes);
        this.budget = new JsonBudget(max);
        this.json = json;
    }

    int max() {
        return max;
    }

    /** JSON the caller built small (a digest and a flag or two), the digest's report marked as the agent's. */
    String small(JsonNode node) {
        String text = write(node instanceof ObjectNode object ? new AgentText().mark(object, AgentText.DIGEST) : node);
        if (!budget.fits(bytes(text))) {
            throw new IllegalStateException("a small answer is over the budget");
        }
        return text;
    }

    JsonNode tree(byte[] jsonBytes) {
        try {
            return json.readTree(jsonBytes);
        } catch (IOException e) {
            throw new IllegalStateException("stored JSON is not readable", e);
        }
    }

    /**
     * A finished dispatch's result, report first and output last; when even
     * its fields without the output do not fit, its digest.
     */
    String result(byte[] resultJson, byte[] digest) {
        ObjectNode result = (ObjectNode) tree(resultJson);
        ObjectNode out = json.createObjectNode();
        for (String field : FIRST) {
            JsonNode value = result.remove(field);
            if (value != null) {
                out.set(field, value);
            }
        }
        AnswerStreams streams = new AnswerStreams(
                result.path("stdout").asText(""), result.path("stderr").asText(""));
        result.remove(STREAMS);
        out.setAll(result);
        out.put("stdout", "");
        out.put("stderr", "");
        AgentText marks = new AgentText();
        int room = max - bytes(write(marks.mark(out, AgentText.RESULT))) - NOTE_ROOM;
        if (room < 0) {
            return digestOnly(digest);
        }
        streams.share(room);
        String text = budget.fit(
                () -> write(marks.mark(streams.into(out), AgentText.RESULT)),
                AnswerBudget::bytes,
                List.of(streams::take));
        return budget.fits(bytes(text)) ? text : digestOnly(digest);
    }

    private String digestOnly(byte[] digest) {
        ObjectNode out = json.createObjectNode();
        out.set("digest", tree(digest));
        out.putArray("omitted")
                .add("the result is over this server's answer budget of " + max
                        + " bytes even without its output; this is its digest: read the whole record at "
                        + "GET /v1/dispatches/{id}, and its streams with read_log");
        return small(out);
    }

    /**
     * A log range as text: the longest start of it that fits, ending on a
     * character boundary, with the offset to read on from.
     */
    String log(String stream, LogRange range) {
        byte[] bytes = range.bytes();
        ObjectNode out = json.createObjectNode();
        out.put("stream", stream);
        out.put("offset", range.offset());
        out.put("nextOffset", Long.MAX_VALUE);
        out.put("end", false);
        out.put("text", "");
        AgentText marks = new AgentText();
        Shown shown = new Shown(bytes, max - bytes(write(marks.mark(out, AgentText.LOG))) - NOTE_ROOM);
        return budget.fit(
                () -> write(marks.mark(shown.into(out, range), AgentText.LOG)),
                AnswerBudget::bytes,
                List.of(shown::take));
    }

    /** How much of a range is shown: as many bytes as fit in the room, escaped, on a character boundary. */
    private final class Shown {

        private final byte[] bytes;
        private long room;
        private int count;

        Shown(byte[] bytes, long room) {
            this.bytes = bytes;
            this.room = room;
            this.count = TextCut.utf8Prefix(bytes, room);
        }

        ObjectNode into(ObjectNode out, LogRange range) {
            long next = range.offset() + count;
            out.put("nextOffset", next);
            out.put("end", range.endOfLog() && count == bytes.length);
            out.put("text", new String(bytes, 0, count, StandardCharsets.UTF_8));
            out.remove("omitted");
            if (count < bytes.length) {
                out.putArray("omitted")
                        .add((bytes.length - count) + " bytes read but not shown, over this server's answer budget of "
                                + max + " bytes: call read_log again with offset " + next);
            }
            return out;
        }

        boolean take(long over) {
            if (room <= 0) {
                return false;
            }
            room = Math.max(0, room - over);
            count = TextCut.utf8Prefix(bytes, room);
            return true;
        }
    }

    /**
     * A page of the listing: items are left out from its end when they do not all fit.
     * {@code cursor} names an item as the caller's next call names it in {@code after}.
     */
    String list(DispatchListView page, Function<DispatchListView.Item, String> cursor) {
        int kept = budget.most(page.items().size(), n -> bytes(listing(page, n, cursor)));
        return listing(page, kept, cursor);
    }

    private String listing(DispatchListView page, int kept, Function<DispatchListView.Item, String> cursor) {
        int all = page.items().size();
        List<DispatchListView.Item> items = page.items().subList(0, kept);
        ObjectNode out = json.createObjectNode();
        out.set("items", json.valueToTree(items));
        boolean more = page.next() != null || kept < all;
        out.put("after", more && kept > 0 ? cursor.apply(items.get(kept - 1)) : null);
        if (kept < all) {
            out.putArray("omitted")
                    .add((all - kept) + " items of this page left out, over this server's answer budget of " + max
                            + " bytes: call list_dispatches again with after");
        }
        return write(out);
    }

    /** A group's record: members are left out from its end when they do not all fit. */
    String group(GroupView view) {
        ObjectNode record = json.valueToTree(view);
        ArrayNode members = (ArrayNode) record.get("members");
        if (members == null) {
            return write(record);
        }
        // Each digest is raw JSON in the view; as a tree, its report can be marked.
        for (int i = 0; i < view.members().size(); i++) {
            String digest = view.members().get(i).digest();
            if (digest != null && members.get(i) instanceof ObjectNode member) {
                member.set("digest", tree(digest.getBytes(StandardCharsets.UTF_8)));
            }
        }
        AgentText marks = new AgentText();
        int kept = budget.most(members.size(), n -> bytes(withMembers(record, members, n, marks)));
        return withMembers(record, members, kept, marks);
    }

    private String withMembers(ObjectNode record, ArrayNode members, int kept, AgentText marks) {
        ObjectNode out = json.createObjectNode();
        out.setAll(record);
        ArrayNode shown = out.putArray("members");
        for (int i = 0; i < kept; i++) {
            shown.add(members.get(i));
        }
        if (kept < members.size()) {
            out.putArray("omitted")
                    .add((members.size() - kept) + " members left out from the end, over this server's answer "
                            + "budget of " + max + " bytes: read each with get_result, or the whole record at "
                            + "GET /v1/dispatch-groups/{id}");
        }
        return write(marks.mark(out, AgentText.members(kept)));
    }

    private String write(JsonNode node) {
        try {
            return json.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree always writes", e);
        }
    }

    /** The answer's size as sent: the text's UTF-8 bytes. */
    private static int bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
