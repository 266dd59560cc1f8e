package dev.sluice.workspace;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

/**
 * A workspace as it is checked and written, entry by entry, into one plain
 * tar file: the form it is kept in while queued and uploaded from. Each entry
 * passes the rules before a byte of it is written (ADR 0060): the totals
 * (entries, bytes), its path, no entry under a file or a link (so a checked
 * path is where it lands), a link's target inside the workspace, a hard link
 * only to a file given before it, no path twice. Every parent directory is
 * written before its entries, so the engine makes none of its own (it would
 * make them root's). Owners are left to the upload, which knows the
 * container's user. Once every entry is in, {@link #complete} follows each
 * link's target through the links the workspace holds, wherever they were
 * placed, as the kernel will ({@link WorkspaceLinks}).
 */
final class WorkspaceTree implements AutoCloseable {

    private enum Kind {
        FILE,
        DIRECTORY,
        LINK
    }

    private final WorkspaceLimits limits;
    private final TarArchiveOutputStream tar;
    private final Map<String, Kind> kinds = new HashMap<>();
    private final WorkspaceLinks links = new WorkspaceLinks();
    private long bytes;
    private int entries;

    WorkspaceTree(WorkspaceLimits limits, Path file) {
        this.limits = limits;
        try {
            OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 64 * 1024);
            this.tar = new TarArchiveOutputStream(out);
        } catch (IOException e) {
            throw new UncheckedIOException("write " + file, e);
        }
        tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
        tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
    }

    /** A regular file of {@code size} bytes, read from {@code data}, which holds at least that many. */
    void file(String field, String rawPath, int mode, long size, InputStream data) throws IOException {
        String path = place(field, rawPath, Kind.FILE);
        if (size > limits.maxBytes() - bytes) {
            throw new WorkspaceRefused(field, "makes the workspace larger than " + limits.maxBytes() + " bytes");
        }
        bytes += size;
        TarArchiveEntry entry = new TarArchiveEntry(path);
        entry.setMode(TarArchiveEntry.DEFAULT_FILE_MODE & ~0777 | mode & 0777);
        entry.setSize(size);
        tar.putArchiveEntry(entry);
        long copied = data.transferTo(new Bounded(tar, size));
        if (copied != size) {
            throw new WorkspaceRefused(field, "ends before its " + size + " bytes");
        }
        tar.closeArchiveEntry();
    }

    void directory(String field, String rawPath, int mode) throws IOException {
        String path = WorkspacePaths.normalize(field, rawPath, limits.maxPathLength());
        count(field);
        if (path.isEmpty() || kinds.get(path) == Kind.DIRECTORY) {
            return; // the root, or a directory already made (tar repeats them)
        }
        place(field, path, Kind.DIRECTORY);
        writeDirectory(path, mode);
    }

    void symlink(String field, String rawPath, String target) throws IOException {
        String path = place(field, rawPath, Kind.LINK);
        WorkspacePaths.linkTarget(field, path, target, limits.maxPathLength());
        links.add(field, path, target);
        TarArchiveEntry entry = new TarArchiveEntry(path, TarConstants.LF_SYMLINK);
        entry.setLinkName(target);
        tar.putArchiveEntry(entry);
        tar.closeArchiveEntry();
    }

    void hardlink(String field, String rawPath, String rawTarget) throws IOException {
        String target = WorkspacePaths.normalize(field, rawTarget, limits.maxPathLength());
        if (kinds.get(target) != Kind.FILE) {
            throw new WorkspaceRefused(field, "is a hard link to something that is not a file given before it");
        }
        String path = place(field, rawPath, Kind.FILE);
        TarArchiveEntry entry = new TarArchiveEntry(path, TarConstants.LF_LINK);
        entry.setLinkName(target);
        tar.putArchiveEntry(entry);
        tar.closeArchiveEntry();
    }

    /**
     * Checks what only the whole tree shows: each link's target, followed
     * through the other links (those placed after it too), stays inside the
     * workspace. Called once every entry is in, before the tar is used.
     */
    void complete() {
        links.check(kinds.keySet());
    }

    long bytes() {
        return bytes;
    }

    int entries() {
        return entries;
    }

    /** Checks a new entry's path and its parents, writes the parents missing, and claims the path. */
    private String place(String field, String rawPath, Kind kind) throws IOException {
        String path = WorkspacePaths.normalize(field, rawPath, limits.maxPathLength());
        if (kind != Kind.DIRECTORY) {
            count(field);
        }
        if (path.isEmpty()) {
            throw new WorkspaceRefused(field, "names the workspace's root, which is a directory");
        }
        if (kinds.containsKey(path)) {
            throw new WorkspaceRefused(field, "is given twice");
        }
        for (int slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
            String parent = path.substring(0, slash);
            Kind found = kinds.get(parent);
            if (found == null) {
                kinds.put(parent, Kind.DIRECTORY);
                writeDirectory(parent, 0755);
            } else if (found != Kind.DIRECTORY) {
                throw new WorkspaceRefused(field, "lies under a file or a link");
            }
        }
        kinds.put(path, kind);
        return path;
    }

    private void count(String field) {
        if (++entries > limits.maxEntries()) {
            throw new WorkspaceRefused(field, "makes the workspace more than " + limits.maxEntries() + " entries");
        }
    }

    private void writeDirectory(String path, int mode) throws IOException {
        TarArchiveEntry entry = new TarArchiveEntry(path + "/");
        entry.setMode(TarArchiveEntry.DEFAULT_DIR_MODE & ~0777 | mode & 0777);
        tar.putArchiveEntry(entry);
        tar.closeArchiveEntry();
    }

    @Override
    public void close() throws IOException {
        tar.close();
    }

    /** Passes at most {@code left} bytes on: a source longer than its size says writes no more than the size. */
    private static final class Bounded extends OutputStream {
        private final OutputStream out;
        private long left;

        Bounded(OutputStream out, long left) {
            this.out = out;
            this.left = left;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            int n = (int) Math.min(len, left);
            if (n < len) {
                throw new IOException("more data than the entry's size");
            }
            out.write(b, off, n);
            left -= n;
        }
    }
}
