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
 * When the runtime's log no longer holds the stream's beginning it says so,
 * "log from byte N" in place of "full log" (ADR 0032).
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

    /**
     * The marker, with its framing newlines, for the given counts.
     *
     * @param availableFrom the first byte of the stream the runtime's log still holds
     */
    String render(long dropped, long original, long availableFrom) {
        return render(dropped, original, availableFrom, 0);
    }

    /**
     * The marker; of a stream the callback budget reduced (ADR 0033), it also
     * states the bytes of this text the budget removed beside it.
     *
     * @param reduced the bytes of this text the callback budget removed
     */
    String render(long dropped, long original, long availableFrom, long reduced) {
        String log = availableFrom > 0 ? "log from byte " + availableFrom : "full log";
        String budget = reduced == 0 ? "" : ", and " + reduced + " more bytes of this text to fit the callback budget";
        return "\n[... sluice " + nonce + ": " + dropped + " of " + original + " bytes of " + stream + " omitted"
                + budget + "; " + log + ": " + fullLog + " ...]\n";
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
    int maxLength(long original, long availableFrom) {
        return render(original, original, availableFrom).length();
    }

    /** Room the marker can ever take for this stream, whatever its size and whatever the log still holds. */
    int worstCaseLength() {
        return render(0, 0, 1).length() + 3 * (MAX_COUNT_DIGITS - 1);
    }
}
