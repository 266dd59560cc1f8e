package dev.sluice.output;

/**
 * What both kinds of collector do alike: count and digest every byte written
 * (the digest of the masked stream), answer for what was written from that
 * digest, and give up the room a loss marker takes from the cap once the
 * witness shows that bytes were lost.
 */
abstract class DigestingCollector implements StreamCollector {

    /** Less the room a loss marker takes, once the witness shows one is needed. */
    int cap;

    final LossMarker lossMarker;
    final StreamDigester digester;
    long written;

    DigestingCollector(int cap, LossMarker lossMarker, SecretMasker masker) {
        this.cap = cap;
        this.lossMarker = lossMarker;
        this.digester = new StreamDigester(masker);
    }

    /** Counts and digests a chunk as it is written. */
    final void digest(byte[] chunk, int offset, int count) {
        written += count;
        digester.update(chunk, offset, count);
    }

    @Override
    public final boolean matchesWritten(String sha256, byte[] suffix, int offset, int count) {
        return digester.matchesWritten(sha256, suffix, offset, count);
    }

    @Override
    public final CapturedOutput finish(long availableFrom, StreamWitness witness) {
        cap -= lossMarker.length(witness);
        CapturedOutput kept = finish(availableFrom);
        return witness == null ? kept : kept.witnessed(witness, lossMarker);
    }

    @Override
    public final long bytesWritten() {
        return written;
    }

    /**
     * At most how many bytes of records the runtime's {@code json-file} log
     * takes for what was written so far (ADR 0036): counted as it streams, so
     * the worker can tell a log that cannot have rotated without reading it.
     */
    @Override
    public final long jsonFileLogBound() {
        return digester.jsonFileLogBound();
    }
}
