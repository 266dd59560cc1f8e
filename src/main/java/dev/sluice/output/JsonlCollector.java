package dev.sluice.output;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Bounds a JSON Lines stream without ever cutting a record (ADR 0031). It keeps
 * whole lines: the first ones in a head of a quarter of the cap, the last ones
 * in a tail that drops its oldest lines as new ones come. When the stream does
 * not fit, the string is the head's lines, one marker record for the lines
 * dropped between, and the tail's lines, every line whole, so the string parses
 * line by line. A line that is not one JSON value is kept as text and counted as
 * such; a line longer than the cap is never held, and stands in the string as a
 * marker record giving its offset and size. Memory stays O(cap): the line being
 * read is held up to the cap, the head and tail within it.
 */
final class JsonlCollector extends DigestingCollector {

    /**
     * Room kept free for what masking at a cut may add after the cut is chosen:
     * a character split at each edge of a part that turns into U+FFFD, and a
     * newline put back before the marker when masking took the head's last one.
     */
    private static final int SLACK = 8;

    private static final int INITIAL_LINE = 256;

    private final JsonlMarker marker;
    private final SecretMasker masker;
    private final int oversizedWeight;
    private final LineQueue head = new LineQueue();
    private LineQueue tail;
    private int tailCapacity;

    private byte[] line = new byte[INITIAL_LINE];
    private int lineLength;
    private long lineSize;
    private long lineOffset;
    private boolean lineOversized;

    private final long[] droppedLines = new long[3];
    private long droppedBytes;

    JsonlCollector(String stream, int cap, String fullLog, String nonce, SecretMasker masker) {
        super(cap, new LossMarker(stream, nonce, true), masker);
        this.marker = new JsonlMarker(stream, fullLog, nonce);
        this.masker = masker;
        OutputCollector.checkCap(cap, marker.worstCaseLength(), fullLog);
        this.oversizedWeight = marker.maxOversizedLength(Long.MAX_VALUE);
    }

    @Override
    public void write(byte[] chunk, int offset, int count) {
        digest(chunk, offset, count);
        int end = offset + count;
        for (int pos = offset; pos < end; ) {
            int newline = ByteScan.indexOf(chunk, pos, end, (byte) '\n');
            int stop = newline < 0 ? end : newline + 1;
            appendToLine(chunk, pos, stop - pos);
            if (newline >= 0) {
                completeLine();
            }
            pos = stop;
        }
    }

    @Override
    public long bytesHeld() {
        return head.heldBytes() + (tail == null ? 0L : tail.heldBytes()) + lineLength;
    }

    /** Bytes of buffer currently allocated: grows with the output, never past a few caps. */
    long bytesAllocated() {
        return (long) line.length + head.allocated() + (tail == null ? 0 : tail.allocated());
    }

    private void appendToLine(byte[] chunk, int offset, int count) {
        lineSize += count;
        if (lineOversized) {
            return;
        }
        if (lineLength + count > cap) {
            // Longer than the cap: it can never be kept whole, so it is not held at all.
            lineOversized = true;
            lineLength = 0;
            return;
        }
        if (lineLength + count > line.length) {
            line = Arrays.copyOf(line, Math.min(cap, Math.max(lineLength + count, 2 * line.length)));
        }
        System.arraycopy(chunk, offset, line, lineLength, count);
        lineLength += count;
    }

    private void completeLine() {
        if (lineOversized) {
            add(LineQueue.OVERSIZED, 0, oversizedWeight);
        } else {
            add(kindOf(line, 0, lineLength), lineLength, lineLength);
        }
        lineOffset += lineSize;
        lineSize = 0;
        lineLength = 0;
        lineOversized = false;
    }

    private void add(int kind, int length, int weight) {
        if (tail == null) {
            if (weight(head) + weight <= cap / OutputCollector.HEAD_SHARE_DIVISOR) {
                push(head, kind, length);
                return;
            }
            // The first line that does not fit closes the head; the tail gets the rest of the cap.
            tail = new LineQueue();
            tailCapacity = cap - weight(head);
        }
        while (!tail.isEmpty() && weight(tail) + weight > tailCapacity) {
            drop(tail.firstKind(), tail.removeFirst());
        }
        push(tail, kind, length);
    }

    private void push(LineQueue queue, int kind, int length) {
        if (kind == LineQueue.OVERSIZED) {
            queue.addOversized(lineOffset, lineSize);
        } else {
            queue.add(kind, line, length);
        }
    }

    private int weight(LineQueue queue) {
        return queue.heldBytes() + queue.oversizedCount() * oversizedWeight;
    }

    private void drop(int kind, long bytes) {
        droppedLines[kind]++;
        droppedBytes += bytes;
    }

    private long dropped() {
        return droppedLines[LineQueue.RECORD] + droppedLines[LineQueue.TEXT] + droppedLines[LineQueue.OVERSIZED];
    }

    /** A record when the line is exactly one JSON value, a text line otherwise. */
    static int kindOf(byte[] bytes, int offset, int length) {
        return JsonValues.isOneValue(bytes, offset, length) ? LineQueue.RECORD : LineQueue.TEXT;
    }

    /** The kept lines; the marker records say where the runtime's copy begins when it is not at 0. */
    @Override
    public CapturedOutput finish(long availableFrom) {
        if (lineSize > 0) {
            completeLine();
        }
        StreamDigest digest = digester.finish();
        LineQueue last = tail == null ? new LineQueue() : tail;
        if (dropped() == 0 && head.oversizedCount() + last.oversizedCount() == 0) {
            byte[] all = new byte[head.heldBytes() + last.heldBytes()];
            System.arraycopy(head.array(), head.regionStart(), all, 0, head.heldBytes());
            System.arraycopy(last.array(), last.regionStart(), all, head.heldBytes(), last.heldBytes());
            masker.mask(all, 0, all.length, true, true);
            if (Utf8.sanitizedLength(all, 0, all.length) <= cap) {
                return new CapturedOutput(
                        Utf8Text.wrap(sanitized(all, 0, all.length)),
                        written,
                        null,
                        digest,
                        FormatOutcome.as(OutputFormat.JSONL));
            }
        }
        return truncate(last, digest, availableFrom);
    }

    private CapturedOutput truncate(LineQueue last, StreamDigest digest, long availableFrom) {
        int[] headLengths = outputLengths(head, availableFrom);
        int[] tailLengths = outputLengths(last, availableFrom);
        long headKept = sum(headLengths, 0, headLengths.length);
        long tailKept = sum(tailLengths, 0, tailLengths.length);
        if (dropped() > 0 || headKept + tailKept > cap - SLACK) {
            long lines = head.size() + last.size() + dropped();
            int budget = cap - marker.maxDroppedLength(lines, written) - SLACK;
            int keepHead = head.size();
            while (keepHead > 0 && headKept > budget / OutputCollector.HEAD_SHARE_DIVISOR) {
                headKept -= headLengths[--keepHead];
            }
            while (head.size() > keepHead) {
                drop(head.lastKind(), head.removeLast());
            }
            int dropTail = 0;
            while (dropTail < tailLengths.length && tailKept > budget - headKept) {
                tailKept -= tailLengths[dropTail++];
            }
            for (int i = 0; i < dropTail; i++) {
                drop(last.firstKind(), last.removeFirst());
            }
        }
        masker.mask(head.array(), head.regionStart(), head.regionEnd(), true, false);
        masker.mask(last.array(), last.regionStart(), last.regionEnd(), false, true);

        long[] kept = new long[3];
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(cap, headKept + tailKept + 512));
        long shown = render(head, kept, out, availableFrom);
        if (dropped() > 0) {
            if (endsWithoutNewline(head)) {
                out.write('\n');
            }
            byte[] record = marker.dropped(
                            droppedBytes,
                            droppedLines[LineQueue.RECORD],
                            droppedLines[LineQueue.TEXT],
                            droppedLines[LineQueue.OVERSIZED],
                            written,
                            availableFrom)
                    .getBytes(StandardCharsets.US_ASCII);
            out.write(record, 0, record.length);
        }
        shown += render(last, kept, out, availableFrom);
        byte[] text = out.toByteArray();
        Overflow overflow = new Overflow(
                written,
                text.length,
                written - shown,
                marker.nonce(),
                OutputFormat.JSONL,
                counts(LineQueue.RECORD, kept),
                counts(LineQueue.TEXT, kept),
                counts(LineQueue.OVERSIZED, kept),
                null);
        return new CapturedOutput(Utf8Text.wrap(text), written, overflow, digest, FormatOutcome.as(OutputFormat.JSONL));
    }

    private Overflow.Counts counts(int kind, long[] kept) {
        return new Overflow.Counts(kept[kind] + droppedLines[kind], kept[kind], droppedLines[kind]);
    }

    /**
     * Writes the queue's lines, each oversized one as its marker record and
     * each other one sanitized, counting them by what they are once masked;
     * returns the stream bytes shown.
     */
    private long render(LineQueue queue, long[] kept, ByteArrayOutputStream out, long availableFrom) {
        byte[] bytes = queue.array();
        int pos = queue.regionStart();
        var oversized = queue.oversized().iterator();
        long shown = 0;
        for (int i = 0; i < queue.size(); i++) {
            if (queue.kind(i) == LineQueue.OVERSIZED) {
                long[] line = oversized.next();
                byte[] record =
                        marker.oversized(line[0], line[1], availableFrom).getBytes(StandardCharsets.US_ASCII);
                out.write(record, 0, record.length);
                kept[LineQueue.OVERSIZED]++;
                continue;
            }
            int length = queue.length(i);
            kept[kindOf(bytes, pos, length)]++;
            byte[] text = sanitized(bytes, pos, pos + length);
            out.write(text, 0, text.length);
            shown += length;
            pos += length;
        }
        return shown;
    }

    /** What each line held will take in the string. */
    private int[] outputLengths(LineQueue queue, long availableFrom) {
        int[] lengths = new int[queue.size()];
        int pos = queue.regionStart();
        var oversized = queue.oversized().iterator();
        for (int i = 0; i < lengths.length; i++) {
            if (queue.kind(i) == LineQueue.OVERSIZED) {
                long[] line = oversized.next();
                lengths[i] = marker.oversized(line[0], line[1], availableFrom).length();
            } else {
                int length = queue.length(i);
                lengths[i] = (int) Utf8.sanitizedLength(queue.array(), pos, pos + length);
                pos += length;
            }
        }
        return lengths;
    }

    /** True when masking took the newline of the head's last line: the marker must still start a line. */
    private static boolean endsWithoutNewline(LineQueue queue) {
        return queue.size() > 0
                && queue.kind(queue.size() - 1) != LineQueue.OVERSIZED
                && queue.array()[queue.regionEnd() - 1] != '\n';
    }

    private static long sum(int[] values, int from, int to) {
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += values[i];
        }
        return sum;
    }

    private static byte[] sanitized(byte[] bytes, int from, int to) {
        if (Utf8.isWellFormed(bytes, from, to)) {
            return Arrays.copyOfRange(bytes, from, to);
        }
        byte[] text = new byte[(int) Utf8.sanitizedLength(bytes, from, to)];
        Utf8.sanitize(bytes, from, to, text, 0);
        return text;
    }
}
