package dev.sluice.storelab;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * DispatchResult JSON texts of a given UTF-8 size, like the worker's: a small
 * envelope and a long {@code stdout} of agent-like lines (mostly ASCII, some
 * multi-byte characters), JSON-escaped. Each one is built afresh by the thread
 * that stores it, from a different starting line, so no two are equal.
 */
final class Payloads {

    private static final String[] WORDS = {
        "review", "diff", "function", "return", "null", "value", "the", "of", "and", "test", "passed", "failed",
        "naïve", "café", "→", "✓", "λ", "日本", "Straße", "build", "error:", "warning:", "src/main/java/Foo.java",
        "{", "}", "\\\"quoted\\\"", "\\t", "42", "0x7f", "ok", "stderr", "stdout", "token", "agent", "tool_call"
    };

    private final List<byte[]> lines = new ArrayList<>();

    Payloads(long seed) {
        Random r = new Random(seed);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder();
            sb.append(String.format("%06d: ", i));
            int words = 4 + r.nextInt(20);
            for (int w = 0; w < words; w++) {
                sb.append(WORDS[r.nextInt(WORDS.length)]).append(' ');
            }
            sb.append("\\n"); // an escaped newline inside the JSON string
            lines.add(sb.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    /** A result of about {@code size} UTF-8 bytes (never more). */
    byte[] build(String dispatchId, int size, int salt) {
        String head = "{\"dispatchId\":\"" + dispatchId + "\",\"status\":\"succeeded\",\"exitCode\":0,\"error\":null,"
                + "\"image\":\"sluice-agent:test\",\"startedAt\":\"2026-11-22T10:00:00.000Z\","
                + "\"finishedAt\":\"2026-11-22T10:01:00.000Z\",\"durationMs\":60000,\"stdout\":\"";
        String tail = "\",\"stderr\":\"\",\"logs\":{\"stdout\":\"/v1/dispatches/" + dispatchId + "/logs/stdout\","
                + "\"stderr\":\"/v1/dispatches/" + dispatchId + "/logs/stderr\",\"possiblyRotated\":false,"
                + "\"recovered\":false},\"metadata\":{\"salt\":" + salt + "}}";
        byte[] h = head.getBytes(StandardCharsets.UTF_8);
        byte[] t = tail.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[size];
        System.arraycopy(h, 0, out, 0, h.length);
        int pos = h.length;
        int limit = size - t.length;
        int line = Math.floorMod(salt * 7919, lines.size());
        while (true) {
            byte[] l = lines.get(line);
            if (pos + l.length > limit) {
                break;
            }
            System.arraycopy(l, 0, out, pos, l.length);
            pos += l.length;
            line = (line + 1) % lines.size();
        }
        // pad with spaces inside the string up to the exact size
        while (pos < limit) {
            out[pos++] = ' ';
        }
        System.arraycopy(t, 0, out, pos, t.length);
        return out;
    }
}
