package dev.sluice.artifact;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.UnaryOperator;

import dev.sluice.container.files.OutArchive;
import dev.sluice.hashing.Sha256;

/**
 * Keeps what a walk of a dispatch's artifacts directory offers, within the
 * bounds: at most {@code maxCount} files, none over {@code maxFileSize}, all
 * together within {@code maxTotal}. A file is copied to the worker's disk in
 * slices, hashed as it goes, its first bytes looked at for its media type; no
 * more than one slice of it is ever in memory. Everything refused is counted,
 * and the first names kept with the reason.
 */
final class ArtifactCollector implements OutArchive.Visitor {

    private static final int SLICE = 64 * 1024;
    private static final int NAME_CHARS = 256;

    private final ArtifactStore.Incoming incoming;
    private final long maxFileSize;
    private final long maxTotal;
    private final int maxCount;
    private final UnaryOperator<String> href;
    private final List<Artifact> kept = new ArrayList<>();
    private final List<ArtifactsRefused.Entry> shown = new ArrayList<>();
    private final byte[] slice = new byte[SLICE];
    private int refused;
    private long total;

    ArtifactCollector(
            ArtifactStore.Incoming incoming,
            long maxFileSize,
            long maxTotal,
            int maxCount,
            UnaryOperator<String> href) {
        this.incoming = incoming;
        this.maxFileSize = maxFileSize;
        this.maxTotal = maxTotal;
        this.maxCount = maxCount;
        this.href = href;
    }

    @Override
    public void file(String name, long size, InputStream data) throws IOException {
        if (kept.size() >= maxCount) {
            refuse(name, ArtifactsRefused.Reason.OVER_COUNT);
        } else if (size > maxFileSize) {
            refuse(name, ArtifactsRefused.Reason.TOO_LARGE);
        } else if (total + size > maxTotal) {
            refuse(name, ArtifactsRefused.Reason.OVER_TOTAL);
        } else if (data == null) {
            refuse(name, ArtifactsRefused.Reason.UNREAD);
        } else {
            keep(name, size, data);
        }
    }

    private void keep(String name, long size, InputStream data) throws IOException {
        MessageDigest sha256 = Sha256.digest();
        int headLength = 0;
        byte[] head = new byte[MediaTypes.SNIFF + 1];
        OutputStream file;
        try {
            file = incoming.create(name, size);
        } catch (IOException e) {
            refuse(name, ArtifactsRefused.Reason.NOT_STORED);
            return;
        }
        try (OutputStream out = new DigestOutputStream(file, sha256)) {
            long left = size;
            while (left > 0) {
                int n = data.read(slice, 0, (int) Math.min(slice.length, left));
                if (n < 0) {
                    throw new IOException(name + " ended before its stated size");
                }
                if (headLength < head.length) {
                    int take = Math.min(n, head.length - headLength);
                    System.arraycopy(slice, 0, head, headLength, take);
                    headLength += take;
                }
                if (!write(out, n)) {
                    incoming.remove(name);
                    refuse(name, ArtifactsRefused.Reason.NOT_STORED); // the walk skips the rest of it
                    return;
                }
                left -= n;
            }
        } catch (IOException e) { // the archive's: the walk ends with it
            incoming.remove(name);
            throw e;
        }
        total += size;
        kept.add(new Artifact(
                name,
                size,
                HexFormat.of().formatHex(sha256.digest()),
                MediaTypes.of(name, head, headLength),
                href.apply(name)));
    }

    /** Writes a slice to the worker's disk; false when the disk refuses it (full, gone). */
    private boolean write(OutputStream out, int n) {
        try {
            out.write(slice, 0, n);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void refused(String name, OutArchive.Refusal refusal) {
        refuse(
                name,
                switch (refusal) {
                    case UNSAFE_NAME -> ArtifactsRefused.Reason.UNSAFE_NAME;
                    case LINK -> ArtifactsRefused.Reason.LINK;
                    case SPECIAL -> ArtifactsRefused.Reason.SPECIAL;
                });
    }

    private void refuse(String name, ArtifactsRefused.Reason reason) {
        refused++;
        if (shown.size() < ArtifactsRefused.SHOWN) {
            shown.add(new ArtifactsRefused.Entry(printable(name), reason));
        }
    }

    /** What was kept, and what was not; {@code problem} says why the walk did not see everything. */
    Artifacts result(String problem) {
        return new Artifacts(
                List.copyOf(kept),
                refused == 0 && problem == null ? null : new ArtifactsRefused(refused, List.copyOf(shown), problem));
    }

    boolean keptAny() {
        return !kept.isEmpty();
    }

    /** A name as a person may read it: control characters shown as {@code ?}, at most 256 characters. */
    static String printable(String name) {
        StringBuilder out = new StringBuilder(Math.min(name.length(), NAME_CHARS));
        for (int i = 0; i < name.length() && out.length() < NAME_CHARS; i++) {
            char c = name.charAt(i);
            out.append(c < 0x20 || c == 0x7f ? '?' : c);
        }
        return out.toString();
    }
}
