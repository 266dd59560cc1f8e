package dev.sluice.workspace;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * Reads a tar or tar.gz archive (told apart by gzip's magic bytes) entry by
 * entry into a {@link WorkspaceTree}, each checked before its data is read.
 * The decompressed stream is read through a limit ({@link
 * WorkspaceLimits#maxArchive()}), so neither a gzip bomb nor headers that
 * grow without end make it read past the bound. Devices, FIFOs and every
 * other kind of entry are refused by their type.
 */
final class ArchiveEntries {

    private ArchiveEntries() {}

    static void read(String field, InputStream archive, WorkspaceTree tree, WorkspaceLimits limits) {
        try {
            InputStream in = new BufferedInputStream(archive, 64 * 1024);
            in.mark(2);
            boolean gzip = in.read() == 0x1f && in.read() == 0x8b;
            in.reset();
            InputStream plain = new Limited(gzip ? new GZIPInputStream(in, 64 * 1024) : in, limits.maxArchive());
            TarArchiveInputStream tar = new TarArchiveInputStream(plain);
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                add(field, entry, tar, tree);
            }
        } catch (WorkspaceRefused e) {
            throw e;
        } catch (Limited.Exceeded e) {
            throw new WorkspaceRefused(
                    field, "is larger than " + limits.maxArchive() + " bytes once decompressed, headers included");
        } catch (IOException | RuntimeException e) {
            throw new WorkspaceRefused(field, "is not a readable tar or tar.gz archive");
        }
    }

    private static void add(String field, TarArchiveEntry entry, InputStream data, WorkspaceTree tree)
            throws IOException {
        String name = entry.getName();
        String at = field + ": entry \"" + printable(name) + "\"";
        if (entry.isSymbolicLink()) {
            tree.symlink(at, name, entry.getLinkName());
        } else if (entry.isLink()) {
            tree.hardlink(at, name, entry.getLinkName());
        } else if (entry.isDirectory()) {
            tree.directory(at, name, entry.getMode());
        } else if (entry.isCharacterDevice() || entry.isBlockDevice() || entry.isFIFO()) {
            throw new WorkspaceRefused(at, "is a device or a FIFO");
        } else if (entry.isFile() && !entry.isSparse()) {
            tree.file(at, name, entry.getMode() & 0777, entry.getSize(), data);
        } else {
            throw new WorkspaceRefused(at, "is a kind of entry a workspace does not take");
        }
    }

    /** The entry's name as a refusal quotes it: bounded, without control characters. */
    private static String printable(String name) {
        String cut = name.length() > 200 ? name.substring(0, 200) + "..." : name;
        return cut.replaceAll("[\\p{Cntrl}\"\\\\]", "?");
    }

    /** Fails once more than {@code limit} bytes were read. */
    static final class Limited extends FilterInputStream {

        static final class Exceeded extends IOException {
            Exceeded() {
                super("limit exceeded");
            }
        }

        private long left;

        Limited(InputStream in, long limit) {
            super(in);
            this.left = limit;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0 && --left < 0) {
                throw new Exceeded();
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, (int) Math.min(len, Math.max(1, left + 1)));
            if (n > 0) {
                left -= n;
                if (left < 0) {
                    throw new Exceeded();
                }
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            return Math.max(0, read(new byte[(int) Math.max(1, Math.min(n, 8192))]));
        }
    }
}
