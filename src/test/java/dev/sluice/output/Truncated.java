package dev.sluice.output;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A truncated text taken apart: the head, the marker's nonce and counts, and the tail. */
record Truncated(String head, String nonce, long dropped, long original, String stream, String fullLog, String tail) {

    private static final Pattern MARKER = Pattern.compile(
            "\\n\\[\\.\\.\\. sluice ([A-Za-z0-9_-]{12}): (\\d+) of (\\d+) bytes of (\\w+) omitted; full log: (\\S+) \\.\\.\\.]\\n");

    static Truncated parse(String text) {
        Matcher m = MARKER.matcher(text);
        if (!m.find()) {
            throw new AssertionError("no marker in a truncated text of " + text.length() + " chars");
        }
        Truncated parsed = new Truncated(
                text.substring(0, m.start()),
                m.group(1),
                Long.parseLong(m.group(2)),
                Long.parseLong(m.group(3)),
                m.group(4),
                m.group(5),
                text.substring(m.end()));
        if (m.find()) {
            throw new AssertionError("more than one marker line");
        }
        return parsed;
    }
}
