package dev.sluice.mcp;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sluice.json.JsonSize;
import dev.sluice.json.TextCut;

/**
 * A result's stdout and stderr as a {@code get_result} answer shows them:
 * each within the room it has of the budget, stderr sure of a quarter of it,
 * its middle cut out and marked in place when it does not fit, and each cut
 * named in {@code omitted}.
 */
final class AnswerStreams {

    private final String stdout;
    private final String stderr;
    private int outRoom;
    private int errRoom;

    AnswerStreams(String stdout, String stderr) {
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** Shares the room: stderr is sure of a quarter, stdout takes what it needs of the rest, stderr what is left. */
    void share(int room) {
        errRoom = Math.min(JsonSize.escaped(stderr), room / 4);
        outRoom = Math.min(JsonSize.escaped(stdout), room - errRoom);
        errRoom = Math.min(JsonSize.escaped(stderr), room - outRoom);
    }

    /** The answer with each stream within its room, and a note in {@code omitted} for each cut. */
    ObjectNode into(ObjectNode out) {
        List<String> omitted = new ArrayList<>();
        out.put("stdout", cut("stdout", stdout, outRoom, omitted));
        out.put("stderr", cut("stderr", stderr, errRoom, omitted));
        out.remove("omitted");
        if (!omitted.isEmpty()) {
            ArrayNode notes = out.putArray("omitted");
            omitted.forEach(notes::add);
        }
        return out;
    }

    /** Only when the estimate of escaped sizes was short: the excess off stdout's room first. */
    boolean take(long over) {
        if (outRoom + errRoom == 0) {
            return false;
        }
        int fromOut = (int) Math.min(outRoom, over);
        outRoom -= fromOut;
        errRoom = (int) Math.max(0, errRoom - (over - fromOut));
        return true;
    }

    /** One stream, its middle left out when it is over {@code room} escaped bytes. */
    private static String cut(String name, String text, int room, List<String> omitted) {
        if (JsonSize.escaped(text) <= room) {
            return text;
        }
        int total = bytes(text);
        String mark = "\n…[" + total + " bytes left out here]…\n";
        int half = Math.max(0, (room - JsonSize.escaped(mark)) / 2);
        int headEnd = TextCut.prefixEnd(text, half, JsonSize::escaped);
        int tailStart = TextCut.suffixStart(text, half, headEnd, JsonSize::escaped);
        String head = text.substring(0, headEnd);
        String tail = text.substring(tailStart);
        long left = total - bytes(head) - bytes(tail);
        omitted.add(name + ": " + left + " of the result's " + total
                + " bytes left out from the middle, over this server's answer budget; read_log reads the whole "
                + "stream");
        return head + mark.replace(Integer.toString(total), Long.toString(left)) + tail;
    }

    private static int bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
