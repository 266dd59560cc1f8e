package dev.sluice.output;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A truncated text taken apart: the head, the marker's counts and the tail. */
record Truncated(String head, long dropped, long original, String stream, String fullLog, String tail) {

    private static final Pattern MARKER = Pattern.compile(
            "\\n\\[\\.\\.\\. sluice: (\\d+) of (\\d+) bytes of (\\w+) omitted; full log: (\\S+) \\.\\.\\.]\\n");

    static Truncated parse(String text) {
        Matcher m = MARKER.matcher(text);
        if (!m.find()) {
            throw new AssertionError("no marker in a truncated text of " + text.length() + " chars");
        }
        Truncated parsed = new Truncated(
                text.substring(0, m.start()),
                Long.parseLong(m.group(1)),
                Long.parseLong(m.group(2)),
                m.group(3),
                m.group(4),
                text.substring(m.end()));
        if (m.find()) {
            throw new AssertionError("more than one marker line");
        }
        return parsed;
    }
}
