package dev.sluice.mcp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sluice.actions.DispatchListView;
import dev.sluice.actions.GroupView;
import dev.sluice.logs.LogRange;

/**
 * Tool answers as JSON text of at most {@code sluice.mcp.max-result-bytes}
 * UTF-8 bytes, never more: what matters most comes first (the digest, the
 * agent's report), the raw output after it as evidence, cut in the middle
 * when it does not fit; and an answer that left something out says so in
 * {@code omitted}, with where to read it.
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
    private final ObjectMapper json;

    AnswerBudget(long maxBytes, ObjectMapper json) {
        if (maxBytes < MIN_BYTES) {
            // Like the output caps: a setting that cannot work stops the worker at start-up, naming itself.
            throw new IllegalArgumentException("sluice.mcp.max-result-bytes must be at least 1K (the digest and "
                    + "what wraps it), not " + maxBytes + " bytes");
        }
        this.max = (int) Math.min(Integer.MAX_VALUE / 2, maxBytes);
        this.json = json;
    }

    int max() {
        return max;
    }

    /** JSON the caller built small (a digest and a flag or two). */
    String small(JsonNode node) {
        String text = write(node);
        if (bytes(text) > max) {
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
        String stdout = result.path("stdout").asText("");
        String stderr = result.path("stderr").asText("");
        result.remove(STREAMS);
        out.setAll(result);
        out.put("stdout", "");
        out.put("stderr", "");
        int room = max - bytes(write(out)) - NOTE_ROOM;
        if (room < 0) {
            return digestOnly(digest);
        }
        int errRoom = Math.min(escaped(stderr), room / 4);
        int outRoom = Math.min(escaped(stdout), room - errRoom);
        errRoom = Math.min(escaped(stderr), room - outRoom);
        while (true) {
            List<String> omitted = new ArrayList<>();
            out.put("stdout", cut("stdout", stdout, outRoom, omitted));
            out.put("stderr", cut("stderr", stderr, errRoom, omitted));
            out.remove("omitted");
            if (!omitted.isEmpty()) {
                ArrayNode notes = out.putArray("omitted");
                omitted.forEach(notes::add);
            }
            String text = write(out);
            int over = bytes(text) - max;
            if (over <= 0) {
                return text;
            }
            if (outRoom + errRoom == 0) {
                return digestOnly(digest);
            }
            // Only when the estimate of escaped sizes was short: take the excess off and try again.
            int fromOut = Math.min(outRoom, over);
            outRoom -= fromOut;
            errRoom = Math.max(0, errRoom - (over - fromOut));
        }
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
        int room = max - bytes(write(out)) - NOTE_ROOM;
        int shown = EscapedSize.utf8Prefix(bytes, room);
        while (true) {
            long next = range.offset() + shown;
            out.put("nextOffset", next);
            out.put("end", range.endOfLog() && shown == bytes.length);
            out.put("text", new String(bytes, 0, shown, StandardCharsets.UTF_8));
            out.remove("omitted");
            if (shown < bytes.length) {
                out.putArray("omitted")
                        .add((bytes.length - shown) + " bytes read but not shown, over this server's answer budget of "
                                + max + " bytes: call read_log again with offset " + next);
            }
            String text = write(out);
            int over = bytes(text) - max;
            if (over <= 0) {
                return text;
            }
            shown = EscapedSize.utf8Prefix(bytes, Math.max(0, room - over));
            room = Math.max(0, room - over);
        }
    }

    /** A page of the listing: items are left out from its end when they do not all fit. */
    String list(DispatchListView page) {
        List<DispatchListView.Item> items = new ArrayList<>(page.items());
        int all = items.size();
        while (true) {
            ObjectNode out = json.createObjectNode();
            out.set("items", json.valueToTree(items));
            boolean more = page.next() != null || items.size() < all;
            out.put(
                    "after",
                    more && !items.isEmpty() ? items.get(items.size() - 1).id() : null);
            if (items.size() < all) {
                out.putArray("omitted")
                        .add((all - items.size()) + " items of this page left out, over this server's answer budget of "
                                + max + " bytes: call list_dispatches again with after");
            }
            String text = write(out);
            if (bytes(text) <= max || items.isEmpty()) {
                return text;
            }
            items.remove(items.size() - 1);
        }
    }

    /** A group's record: members are left out from its end when they do not all fit. */
    String group(GroupView view) {
        ObjectNode out = json.valueToTree(view);
        ArrayNode members = (ArrayNode) out.get("members");
        int all = members == null ? 0 : members.size();
        while (true) {
            String text = write(out);
            if (bytes(text) <= max || members == null || members.isEmpty()) {
                return text;
            }
            members.remove(members.size() - 1);
            out.remove("omitted");
            out.putArray("omitted")
                    .add((all - members.size()) + " members left out from the end, over this server's answer "
                            + "budget of " + max + " bytes: read each with get_result, or the whole record at "
                            + "GET /v1/dispatch-groups/{id}");
        }
    }

    /** One stream, its middle left out when it is over {@code room} escaped bytes. */
    private static String cut(String name, String text, int room, List<String> omitted) {
        if (escaped(text) <= room) {
            return text;
        }
        int total = text.getBytes(StandardCharsets.UTF_8).length;
        String mark = "\n…[" + total + " bytes left out here]…\n";
        int half = Math.max(0, (room - escaped(mark)) / 2);
        int headEnd = EscapedSize.prefixChars(text, half);
        int tailStart = EscapedSize.suffixStart(text, half, headEnd);
        String head = text.substring(0, headEnd);
        String tail = text.substring(tailStart);
        long left = total - head.getBytes(StandardCharsets.UTF_8).length - tail.getBytes(StandardCharsets.UTF_8).length;
        omitted.add(name + ": " + left + " of the result's " + total
                + " bytes left out from the middle, over this server's answer budget; read_log reads the whole "
                + "stream");
        return head + mark.replace(Integer.toString(total), Long.toString(left)) + tail;
    }

    private static int escaped(String text) {
        return EscapedSize.of(text);
    }

    private String write(JsonNode node) {
        try {
            return json.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree always writes", e);
        }
    }

    private static int bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
