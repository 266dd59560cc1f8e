package dev.sluice.output;

import java.nio.charset.StandardCharsets;

/**
 * Bounds one output stream (ADR 0003): it keeps the first bytes in a head
 * buffer and the last in a tail ring, counts and digests everything (ADR
 * 0025), and on {@link #finish()} returns a string of at most {@code cap} UTF-8
 * bytes that is the whole stream when it fits, and otherwise its beginning,
 * one marker line and its end, with the digest of the whole stream.
 *
 * <p>{@link #write} is the hot path: it hashes each chunk and copies it at
 * most twice, and allocates only while the buffers first grow, so memory stays
 * O(cap) however much the process prints. The caller may reuse its chunk
 * buffer as soon as {@code write} returns. One thread writes; {@code finish}
 * must be called once, after the last write is visible to it.
 */
public final class OutputCollector extends DigestingCollector {

    /** Smallest cap: it must hold the worst-case marker and still leave room for output. */
    public static final int MIN_CAP = 1024;

    /** Largest cap: the result is one JSON string held in memory. */
    public static final int MAX_CAP = 1 << 30;

    /**
     * First allocation of each buffer (the tail's only once the head is full);
     * they grow fourfold from there up to their share of the cap. A dispatch that
     * prints a line holds a kilobyte per stream.
     */
    private static final int INITIAL_BUFFER = 1024;

    /** The head gets a quarter of the room, the tail the rest (ADR 0003); every format cuts this way. */
    static final int HEAD_SHARE_DIVISOR = 4;

    /** How far, as a fraction of a kept part, a cut may move to land on a line break. */
    private static final int LINE_SEARCH_DIVISOR = 8;

    private static final int MAX_LINE_SEARCH = 8192;

    private final TruncationMarker marker;
    private final SecretMasker masker;
    private final HeadBuffer head;
    private final TailRing tail;

    /**
     * @param stream  the stream's name as the marker states it ({@code stdout}, {@code stderr})
     * @param cap     the most UTF-8 bytes the returned string may take, marker included
     * @param fullLog where the untruncated stream can be read, stated in the marker
     * @param nonce   the dispatch's {@link MarkerNonce}, carried by the marker and the overflow
     * @param masker  the dispatch's secrets, masked in the text and the digest
     */
    public OutputCollector(String stream, int cap, String fullLog, String nonce, SecretMasker masker) {
        super(cap, new LossMarker(stream, nonce, false), masker);
        this.marker = new TruncationMarker(stream, fullLog, nonce);
        this.masker = masker;
        checkCap(cap, marker.worstCaseLength(), fullLog);
        int headCapacity = cap / HEAD_SHARE_DIVISOR;
        this.head = new HeadBuffer(headCapacity, INITIAL_BUFFER);
        this.tail = new TailRing(cap - headCapacity, INITIAL_BUFFER);
    }

    /** Refuses a cap out of bounds, or one whose marker would take half of it or more. */
    static void checkCap(int cap, int markerWorstCase, String fullLog) {
        if (cap < MIN_CAP || cap > MAX_CAP) {
            throw new IllegalArgumentException("a cap must be at least " + MIN_CAP
                    + " bytes, to leave room for the truncation marker, and at most " + MAX_CAP + "; got " + cap);
        }
        if (markerWorstCase >= cap / 2) {
            throw new IllegalArgumentException(
                    "the truncation marker for " + fullLog + " does not fit a cap of " + cap);
        }
    }

    @Override
    public void write(byte[] chunk, int offset, int count) {
        digest(chunk, offset, count);
        int taken = head.append(chunk, offset, count);
        if (taken < count) {
            tail.append(chunk, offset + taken, count - taken);
        }
    }

    /** Bytes of the stream held now, at most the cap: what the result is built from. */
    @Override
    public long bytesHeld() {
        return head.length() + (long) tail.size();
    }

    /** Bytes of buffer currently allocated: grows with the output, never past the cap. */
    public long bytesAllocated() {
        return (long) head.allocated() + tail.allocated();
    }

    /**
     * Builds the bounded text, masking secrets first: masking keeps lengths, and
     * masked bytes are plain ASCII the cuts can then fall between. The text is
     * made once, as UTF-8 bytes. A marker, if any, points at where the stream's
     * copy in the runtime's log now begins, {@code availableFrom} (ADR 0032).
     */
    @Override
    public CapturedOutput finish(long availableFrom) {
        StreamDigest digest = digester.finish();
        byte[] headBytes = head.array();
        int headLength = head.length();
        // The ring is turned in place: finishing holds no second copy of the tail.
        byte[] tailBytes = tail.inOrder();
        int tailLength = tail.size();
        if (headLength + (long) tailLength == written) {
            // Nothing was dropped: the stream is the head followed by the tail. It
            // can still be too long once ill-formed bytes become U+FFFD.
            byte[] all = new byte[headLength + tailLength];
            System.arraycopy(headBytes, 0, all, 0, headLength);
            System.arraycopy(tailBytes, 0, all, headLength, tailLength);
            masker.mask(all, 0, all.length, true, true);
            long length = Utf8.sanitizedLength(all, 0, all.length);
            if (length <= cap) {
                return new CapturedOutput(wellFormed(all, (int) length), written, null, digest);
            }
        }
        masker.mask(headBytes, 0, headLength, true, false);
        masker.mask(tailBytes, 0, tailLength, false, true);
        return truncate(headBytes, headLength, tailBytes, tailLength, digest, availableFrom);
    }

    /** The stream whole: the bytes themselves when they are well-formed already. */
    private static Utf8Text wellFormed(byte[] all, int sanitizedLength) {
        if (Utf8.isWellFormed(all, 0, all.length)) {
            return Utf8Text.wrap(all);
        }
        byte[] text = new byte[sanitizedLength];
        Utf8.sanitize(all, 0, all.length, text, 0);
        return Utf8Text.wrap(text);
    }

    private CapturedOutput truncate(
            byte[] headBytes,
            int headLength,
            byte[] tailBytes,
            int tailLength,
            StreamDigest digest,
            long availableFrom) {
        int budget = cap - marker.maxLength(written, availableFrom);
        int headBudget = budget / HEAD_SHARE_DIVISOR;
        int headEnd = cutHead(headBytes, headLength, headBudget);
        int tailStart = cutTail(tailBytes, tailLength, budget - headBudget);
        long dropped = written - headEnd - (tailLength - tailStart);

        byte[] line = marker.render(dropped, written, availableFrom).getBytes(StandardCharsets.UTF_8);
        long kept = Utf8.sanitizedLength(headBytes, 0, headEnd)
                + line.length
                + Utf8.sanitizedLength(tailBytes, tailStart, tailLength);
        byte[] text = new byte[(int) kept];
        int at = Utf8.sanitize(headBytes, 0, headEnd, text, 0);
        System.arraycopy(line, 0, text, at, line.length);
        Utf8.sanitize(tailBytes, tailStart, tailLength, text, at + line.length);
        return new CapturedOutput(
                Utf8Text.wrap(text), written, new Overflow(written, kept, dropped, marker.nonce()), digest);
    }

    /**
     * End of the kept head: the longest run of whole units from the start that
     * decodes to at most {@code budget} bytes, pulled back to just after a line
     * break when one is near. A sequence the head buffer ends inside of is left
     * out whole.
     */
    private static int cutHead(byte[] bytes, int length, int budget) {
        int pos = 0;
        int decoded = 0;
        while (pos < length) {
            int unit = Utf8.unit(bytes, pos, length);
            if (unit == Utf8.INCOMPLETE) {
                break;
            }
            int out = Utf8.decodedLength(unit);
            if (decoded + out > budget) {
                break;
            }
            decoded += out;
            pos += Math.abs(unit);
        }
        int searchFrom = Math.max(0, pos - lineSearch(pos));
        for (int i = pos - 1; i >= searchFrom; i--) {
            if (bytes[i] == '\n') {
                return i + 1;
            }
        }
        return pos;
    }

    /**
     * Start of the kept tail: skips the continuation bytes of a sequence whose
     * start was dropped, then drops whole units from the front until the rest
     * decodes to at most {@code budget} bytes, then moves forward to just after
     * a line break when one is near.
     */
    private static int cutTail(byte[] bytes, int length, int budget) {
        int start = 0;
        while (start < length && start < 3 && Utf8.isContinuation(bytes[start])) {
            start++;
        }
        long decoded = 0;
        for (int pos = start; pos < length; ) {
            int unit = Utf8.finalUnit(bytes, pos, length);
            decoded += Utf8.decodedLength(unit);
            pos += Math.abs(unit);
        }
        while (decoded > budget) {
            int unit = Utf8.finalUnit(bytes, start, length);
            decoded -= Utf8.decodedLength(unit);
            start += Math.abs(unit);
        }
        if (start > 0 && bytes[start - 1] == '\n') {
            return start;
        }
        int searchTo = Math.min(length, start + lineSearch(length - start));
        for (int i = start; i < searchTo; i++) {
            if (bytes[i] == '\n') {
                return i + 1;
            }
        }
        return start;
    }

    private static int lineSearch(int keptLength) {
        return Math.min(keptLength / LINE_SEARCH_DIVISOR, MAX_LINE_SEARCH);
    }
}
