package dev.sluice.output;

import java.util.function.Supplier;

import dev.sluice.hashing.Sha256;

/**
 * Sets what reached the worker of one stream against what the witness in the
 * container counted the process writing (ADR 0045), before the stream is
 * finished. The engine loses output at the end of a stream (it closes its
 * copy a moment after the exit), so a stream that arrived short by no more
 * than the witness keeps of its end is completed from that copy, but only
 * when the hash of what arrived followed by the missing bytes is the hash the
 * witness took of the whole stream: then the result is exact. Anything else
 * that differs is reported as incomplete, never presented as whole.
 */
public final class WitnessCheck {

    /** The witness's copy of a stream's last bytes, or why it could not be read. */
    public record Tail(byte[] bytes, String problem) {

        public static Tail of(byte[] bytes) {
            return new Tail(bytes, null);
        }

        public static Tail unreadable(String problem) {
            return new Tail(null, problem);
        }
    }

    private WitnessCheck() {}

    /**
     * Judges the stream {@code collector} received against the witness's count,
     * restoring a lost end into the collector when it is proven; reads the tail
     * only then.
     *
     * @param written   the bytes the witness saw the process write
     * @param sha256    their SHA-256, lowercase hex
     * @param tailBytes  how many of the stream's last bytes the witness kept
     * @param tailSha256 their SHA-256 as the witness wrote them: a copy that is not is not used
     * @param tail       reads those bytes
     */
    public static StreamWitness check(
            StreamCollector collector,
            long written,
            String sha256,
            long tailBytes,
            String tailSha256,
            Supplier<Tail> tail) {
        long received = collector.bytesWritten();
        if (received == written) {
            return collector.matchesWritten(sha256, new byte[0], 0, 0)
                    ? StreamWitness.complete(written)
                    : StreamWitness.incomplete(
                            written,
                            received,
                            StreamWitness.UNKNOWN,
                            "as many bytes reached the worker as the process wrote, but not the same ones");
        }
        if (received > written) {
            return StreamWitness.incomplete(
                    written,
                    received,
                    StreamWitness.UNKNOWN,
                    (received - written) + " more bytes reached the worker than the process wrote");
        }
        long missing = written - received;
        String lost = missing + " of the " + written + " bytes the process wrote did not reach the worker";
        if (missing > tailBytes) {
            return StreamWitness.incomplete(
                    written,
                    received,
                    StreamWitness.UNKNOWN,
                    lost + ", more than the witness keeps of the stream's end (" + tailBytes + " bytes)");
        }
        Tail copy = tail.get();
        if (copy.bytes() == null
                || copy.bytes().length < missing
                || !Sha256.hex(copy.bytes()).equals(tailSha256)) {
            String why = copy.bytes() == null
                    ? copy.problem()
                    : copy.bytes().length < missing
                            ? "it holds fewer bytes than are missing"
                            : "it is not the copy the witness wrote";
            return StreamWitness.incomplete(
                    written,
                    received,
                    StreamWitness.UNKNOWN,
                    lost + "; the witness's copy of the end could not be used: " + why);
        }
        byte[] end = copy.bytes();
        int from = end.length - (int) missing;
        if (!collector.matchesWritten(sha256, end, from, (int) missing)) {
            return StreamWitness.incomplete(
                    written,
                    received,
                    StreamWitness.MIDDLE,
                    lost + "; what arrived is not the start of what the process wrote");
        }
        collector.write(end, from, (int) missing);
        return StreamWitness.recovered(written, received);
    }
}
