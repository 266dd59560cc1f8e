package dev.sluice.storelab;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * Result bodies as files beside the index: written to a temporary file,
 * fsynced, renamed into place, and the directory fsynced, so that once
 * {@link #write} returns the file is whole and durable under its final name.
 * The index row that names it is committed afterwards; a crash in between
 * leaves a file no row names (an orphan, removed by a sweep), never a row
 * naming a missing or partial file.
 */
final class ResultFiles {

    /**
     * Heap buffers are written in slices: a FileChannel copies a heap buffer
     * into a temporary direct buffer of the same size and keeps one per thread,
     * so writing 4 MiB at once from 50 threads would pin 200 MiB of native memory.
     */
    private static final int SLICE = 64 * 1024;

    private final Path dir;

    ResultFiles(Path dir) throws IOException {
        this.dir = Files.createDirectories(dir);
    }

    Path dir() {
        return dir;
    }

    /** Writes the body durably; returns the file's name. */
    String write(String dispatchId, byte[] body) throws IOException {
        String name = dispatchId + ".json";
        Path tmp = dir.resolve("." + name + "." + UUID.randomUUID() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int off = 0; off < body.length; off += SLICE) {
                ByteBuffer b = ByteBuffer.wrap(body, off, Math.min(SLICE, body.length - off));
                while (b.hasRemaining()) {
                    ch.write(b);
                }
            }
            ch.force(true);
        }
        Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        syncDirectory();
        return name;
    }

    /** Streams the body to {@code out} through one small buffer. */
    long copyTo(String name, OutputStream out, byte[] buffer) throws IOException {
        long n = 0;
        try (InputStream in = Files.newInputStream(dir.resolve(name))) {
            int r;
            while ((r = in.read(buffer)) >= 0) {
                out.write(buffer, 0, r);
                n += r;
            }
        }
        return n;
    }

    /** Streams the body with FileChannel.transferTo (sendfile when the target is a socket). */
    long transferTo(String name, OutputStream out) throws IOException {
        try (FileChannel ch = FileChannel.open(dir.resolve(name), StandardOpenOption.READ)) {
            long size = ch.size();
            long pos = 0;
            var target = Channels.newChannel(out);
            while (pos < size) {
                pos += ch.transferTo(pos, size - pos, target);
            }
            return size;
        }
    }

    void delete(String name) throws IOException {
        Files.deleteIfExists(dir.resolve(name));
    }

    private void syncDirectory() throws IOException {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
    }
}
