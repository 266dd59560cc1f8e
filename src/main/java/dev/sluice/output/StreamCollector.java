package dev.sluice.output;

/**
 * Bounds one output stream while the process writes it, in the format the
 * dispatch asked for (ADR 0003, ADR 0031). One thread writes; {@link #finish()}
 * is called once, after the last write is visible to it. The caller may reuse
 * its chunk buffer as soon as {@code write} returns.
 */
public interface StreamCollector {

    void write(byte[] chunk, int offset, int count);

    /** Bytes written so far, past the cap too. */
    long bytesWritten();

    /**
     * At most how many bytes of records the runtime's {@code json-file} log
     * takes for what was written so far (ADR 0036).
     */
    long jsonFileLogBound();

    /** Bytes of the stream held now, about the cap at most: what the result is built from. */
    long bytesHeld();

    /** The stream as kept, its marker saying the runtime's log holds it whole. */
    default CapturedOutput finish() {
        return finish(0);
    }

    /**
     * The stream as kept.
     *
     * @param availableFrom the first byte of the stream the runtime's log still holds (ADR 0032)
     */
    CapturedOutput finish(long availableFrom);

    /**
     * The stream as kept, set against what the witness in the container
     * counted (ADR 0045): when bytes were lost, the text ends with a line that
     * says so, within the cap. Called instead of {@link #finish(long)}, once.
     */
    CapturedOutput finish(long availableFrom, StreamWitness witness);

    /**
     * Whether the bytes written so far, as the process wrote them, followed by
     * {@code suffix}, have the SHA-256 {@code sha256} (lowercase hex). Changes
     * nothing.
     */
    boolean matchesWritten(String sha256, byte[] suffix, int offset, int count);

    /**
     * The smallest cap a stream in {@code format} can have: its marker, for the
     * given log path and a nonce as long as the given one, must take less than
     * half of it, as the collectors require.
     */
    static int minCap(OutputFormat format, String fullLog, String nonce) {
        int marker = format == OutputFormat.JSONL
                ? new JsonlMarker("stdout", fullLog, nonce).worstCaseLength()
                : new TruncationMarker("stdout", fullLog, nonce).worstCaseLength();
        return Math.max(OutputCollector.MIN_CAP, 2 * marker + 2);
    }

    /**
     * The collector for a stream captured live in {@code format}. A {@code json}
     * stream is captured as text while it runs; the document is reduced from the
     * runtime's log after the exit ({@link JsonReducer}).
     */
    static StreamCollector of(
            OutputFormat format, String stream, int cap, String fullLog, String nonce, SecretMasker masker) {
        return format == OutputFormat.JSONL
                ? new JsonlCollector(stream, cap, fullLog, nonce, masker)
                : new OutputCollector(stream, cap, fullLog, nonce, masker);
    }
}
