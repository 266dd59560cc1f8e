package dev.sluice.output;

/**
 * The marker records of a {@code jsonl} stream (ADR 0031): each is one JSON
 * line whose only field is {@code sluice.truncated}, so the kept output still
 * parses line by line. One stands where whole records were dropped from the
 * middle; one stands for each line longer than the cap, giving its offset and
 * size in the stream. Both carry the dispatch's {@link MarkerNonce}, which a
 * line the process printed cannot.
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

    /** The record that stands for the dropped middle, with its newline. */
    String dropped(long bytes, long records, long textLines, long oversizedLines, long original) {
        return "{\"sluice.truncated\":{\"nonce\":\"" + nonce + "\",\"stream\":\"" + stream + "\",\"droppedBytes\":"
                + bytes + ",\"droppedRecords\":" + records + ",\"droppedTextLines\":" + textLines
                + ",\"droppedOversizedLines\":" + oversizedLines + ",\"originalBytes\":" + original + ",\"log\":\""
                + fullLog + "\"}}\n";
    }

    /** The record that stands for one line longer than the cap, with its newline. */
    String oversized(long offset, long size) {
        return "{\"sluice.truncated\":{\"nonce\":\"" + nonce + "\",\"stream\":\"" + stream
                + "\",\"oversizedLine\":{\"offset\":" + offset + ",\"bytes\":" + size + "},\"log\":\"" + fullLog
                + "\"}}\n";
    }

    /** Room the middle record can take for a stream of {@code original} bytes in {@code lines} lines. */
    int maxDroppedLength(long lines, long original) {
        return dropped(original, lines, lines, lines, original).length();
    }

    /** Room an oversized line's record can take in a stream of {@code original} bytes. */
    int maxOversizedLength(long original) {
        return oversized(original, original).length();
    }

    /** Room either record can ever take for this stream, whatever its size. */
    int worstCaseLength() {
        return Math.max(
                dropped(WIDEST, WIDEST, WIDEST, WIDEST, WIDEST).length(),
                oversized(WIDEST, WIDEST).length());
    }
}
