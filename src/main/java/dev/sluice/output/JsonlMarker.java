package dev.sluice.output;

/**
 * The marker records of a {@code jsonl} stream (ADR 0031): each is one JSON
 * line whose only field is {@code sluice.truncated}, so the kept output still
 * parses line by line. One stands where whole records were dropped from the
 * middle; one stands for each line longer than the cap, giving its offset and
 * size in the stream. Both carry the dispatch's {@link MarkerNonce}, which a
 * line the process printed cannot, and name the log; when the runtime's log no
 * longer holds the stream's beginning, {@code logFrom} gives the first byte it
 * holds (ADR 0032), as "log from byte N" does in a text marker.
 */
final class JsonlMarker {

    /** Widest decimal rendering of a count. */
    private static final long WIDEST = Long.MAX_VALUE;

    private final String stream;
    private final String fullLog;
    private final String nonce;

    JsonlMarker(String stream, String fullLog, String nonce) {
        this.stream = stream;
        this.fullLog = fullLog;
        this.nonce = nonce;
    }

    String nonce() {
        return nonce;
    }

    /**
     * The record that stands for the dropped middle, with its newline.
     *
     * @param availableFrom the first byte of the stream the runtime's log still holds
     */
    String dropped(long bytes, long records, long textLines, long oversizedLines, long original, long availableFrom) {
        return "{\"sluice.truncated\":{\"nonce\":\"" + nonce + "\",\"stream\":\"" + stream + "\",\"droppedBytes\":"
                + bytes + ",\"droppedRecords\":" + records + ",\"droppedTextLines\":" + textLines
                + ",\"droppedOversizedLines\":" + oversizedLines + ",\"originalBytes\":" + original
                + log(availableFrom);
    }

    /** The record that stands for one line longer than the cap, with its newline. */
    String oversized(long offset, long size, long availableFrom) {
        return "{\"sluice.truncated\":{\"nonce\":\"" + nonce + "\",\"stream\":\"" + stream
                + "\",\"oversizedLine\":{\"offset\":" + offset + ",\"bytes\":" + size + "}" + log(availableFrom);
    }

    private String log(long availableFrom) {
        String from = availableFrom > 0 ? ",\"logFrom\":" + availableFrom : "";
        return ",\"log\":\"" + fullLog + "\"" + from + "}}\n";
    }

    /** Room the middle record can take for a stream of {@code original} bytes in {@code lines} lines. */
    int maxDroppedLength(long lines, long original) {
        return dropped(original, lines, lines, lines, original, original).length();
    }

    /** Room an oversized line's record can take in a stream of {@code original} bytes. */
    int maxOversizedLength(long original) {
        return oversized(original, original, original).length();
    }

    /** Room either record can ever take for this stream, whatever its size. */
    int worstCaseLength() {
        return Math.max(
                dropped(WIDEST, WIDEST, WIDEST, WIDEST, WIDEST, WIDEST).length(),
                oversized(WIDEST, WIDEST, WIDEST).length());
    }
}
