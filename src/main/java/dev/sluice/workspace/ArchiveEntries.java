package dev.sluice.workspace;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

import dev.sluice.io.LimitedInputStream;

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
            InputStream plain =
                    new LimitedInputStream(gzip ? new GZIPInputStream(in, 64 * 1024) : in, limits.maxArchive());
            TarArchiveInputStream tar = new TarArchiveInputStream(plain);
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                add(field, entry, tar, tree);
            }
        } catch (WorkspaceRefused e) {
            throw e;
        } catch (LimitedInputStream.Exceeded e) {
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
}
