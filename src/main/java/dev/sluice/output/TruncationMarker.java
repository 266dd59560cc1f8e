package dev.sluice.output;

import java.nio.charset.StandardCharsets;

/**
 * The line that stands where a stream's middle was dropped, for example:
 * <pre>[... sluice q3Zk8vR1xW0b: 5242880 of 9437184 bytes of stdout omitted; full log: /v1/dispatches/d-7f3a/logs/stdout ...]</pre>
 * It sits on a line of its own, so an agent reading the text cannot mistake it
 * for output, and it says where the whole stream can be read. It is always
 * framed by one newline on each side, even when the head already ends a line:
 * then a reader can split the text back into the exact head and tail. It
 * carries the dispatch's {@link MarkerNonce}, which the overflow record names:
 * a line the process printed to look like a marker cannot carry it (ADR 0025).
 */
final class TruncationMarker {

    /** Widest decimal rendering of a byte count. */
    private static final int MAX_COUNT_DIGITS = String.valueOf(Long.MAX_VALUE).length();

    private final String stream;
    private final String fullLog;
    private final String nonce;

    TruncationMarker(String stream, String fullLog, String nonce) {
        this.stream = stream;
        this.fullLog = fullLog;
        this.nonce = nonce;
    }

    String nonce() {
        return nonce;
    }

    /** The marker, with its framing newlines, for the given counts. */
    String render(long dropped, long original) {
        return "\n[... sluice " + nonce + ": " + dropped + " of " + original + " bytes of " + stream
                + " omitted; full log: " + fullLog + " ...]\n";
    }

    /**
     * The marker of a stream the callback budget reduced (ADR 0033): it also
     * states the bytes of this text the budget removed beside it.
     */
    String render(long dropped, long original, long reduced) {
        if (reduced == 0) {
            return render(dropped, original);
        }
        return "\n[... sluice " + nonce + ": " + dropped + " of " + original + " bytes of " + stream
                + " omitted, and " + reduced + " more bytes of this text to fit the callback budget; full log: "
                + fullLog + " ...]\n";
    }

    /** Where this marker's line begins in {@code text} (its opening newline), or -1. */
    int find(byte[] text) {
        byte[] opening = ("\n[... sluice " + nonce + ": ").getBytes(StandardCharsets.UTF_8);
        outer:
        for (int i = 0; i + opening.length <= text.length; i++) {
            for (int j = 0; j < opening.length; j++) {
                if (text[i + j] != opening[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** Room to reserve for the marker of a stream of {@code original} bytes, whatever gets dropped. */
    int maxLength(long original) {
        return render(original, original).length();
    }

    /** Room the marker can ever take for this stream, whatever its size. */
    int worstCaseLength() {
        return render(0, 0).length() + 2 * (MAX_COUNT_DIGITS - 1);
    }
}
