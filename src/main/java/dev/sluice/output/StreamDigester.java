package dev.sluice.output;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;

import dev.sluice.hashing.Sha256;

/**
 * Takes the {@link StreamDigest} of a whole stream while it is written, so a
 * consumer can check a log read back later against what the worker saw (ADR
 * 0025). It holds nothing of the stream but the hash's state, except for a
 * dispatch with secrets: then it digests the stream as the logs endpoint
 * serves it, masked, and holds back the last {@link SecretMasker#margin()}
 * bytes, which a secret may still continue from, until the next chunk or the
 * end shows whether it does.
 */
final class StreamDigester {

    private final MessageDigest sha256;
    /**
     * With secrets only: the stream as written, unmasked, so the witness's
     * count of it can be checked (ADR 0045). Never shown: it would let a guess
     * at a secret be tested.
     */
    private final MessageDigest raw;

    private final SecretMasker masker;
    private final JsonFileLogSize logSize = new JsonFileLogSize();
    private long bytes;
    private long lines;

    /**
     * With secrets only: bytes not digested yet, as written, and which of them
     * a secret was found in; {@code found} is false from {@code held} on.
     */
    private byte[] pending = new byte[0];

    private boolean[] found = new boolean[0];
    private int held;
    private boolean heldFound;

    StreamDigester(SecretMasker masker) {
        this.masker = masker;
        this.sha256 = Sha256.digest();
        this.raw = masker.isEmpty() ? null : Sha256.digest();
    }

    void update(byte[] chunk, int offset, int count) {
        bytes += count;
        long newlines = logSize.update(chunk, offset, count);
        if (masker.isEmpty()) {
            // Served as written: the log's count of newlines is the digest's.
            sha256.update(chunk, offset, count);
            lines += newlines;
        } else {
            raw.update(chunk, offset, count);
            digestMasked(chunk, offset, count);
        }
    }

    /**
     * Whether the bytes written so far, as written, followed by {@code suffix},
     * have the SHA-256 {@code expected} (lowercase hex). Changes nothing: the
     * check runs on a copy of the hash's state.
     */
    boolean matchesWritten(String expected, byte[] suffix, int offset, int count) {
        MessageDigest copy = Sha256.copy(raw != null ? raw : sha256);
        copy.update(suffix, offset, count);
        return HexFormat.of().formatHex(copy.digest()).equals(expected);
    }

    /** At most how many bytes the {@code json-file} log of the stream so far takes: see {@link JsonFileLogSize}. */
    long jsonFileLogBound() {
        return logSize.bound();
    }

    StreamDigest finish() {
        if (heldFound) {
            SecretMasker.cover(pending, 0, held, found);
        }
        digest(pending, 0, held);
        held = 0;
        return new StreamDigest(HexFormat.of().formatHex(sha256.digest()), bytes, lines);
    }

    private void digest(byte[] b, int offset, int count) {
        sha256.update(b, offset, count);
        lines += ByteScan.count(b, offset, offset + count, (byte) '\n');
    }

    /**
     * Finds secrets in what was held back and the new chunk together, then
     * digests all but the last {@code margin} bytes: a secret found later can
     * only start among those. A secret that started before them was wholly
     * inside an earlier round, and its marks are kept with the bytes held.
     * Output without secrets in it costs a copy and a scan per secret.
     */
    private void digestMasked(byte[] chunk, int offset, int count) {
        int length = held + count;
        if (pending.length < length) {
            pending = Arrays.copyOf(pending, length);
            found = Arrays.copyOf(found, length);
        }
        System.arraycopy(chunk, offset, pending, held, count);
        boolean marked = masker.markOccurrences(pending, 0, length, found) | heldFound;
        int ready = Math.max(0, length - masker.margin());
        if (marked) {
            SecretMasker.cover(pending, 0, ready, found);
        }
        digest(pending, 0, ready);
        held = length - ready;
        System.arraycopy(pending, ready, pending, 0, held);
        if (marked) {
            System.arraycopy(found, ready, found, 0, held);
            Arrays.fill(found, held, length, false);
            heldFound = false;
            for (int i = 0; i < held && !heldFound; i++) {
                heldFound = found[i];
            }
        }
    }
}
