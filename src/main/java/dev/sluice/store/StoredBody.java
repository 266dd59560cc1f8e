package dev.sluice.store;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A large value the store keeps (a result's JSON): its length, and its bytes
 * read when asked, as a stream that can go to a socket without being held on
 * the heap, or whole.
 */
public interface StoredBody {

    long size();

    /** The bytes as a stream; the caller closes it. */
    InputStream open() throws IOException;

    /** The bytes, read whole. */
    default byte[] bytes() {
        try (InputStream in = open()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A body held in memory. */
    static StoredBody of(byte[] bytes) {
        return new StoredBody() {
            @Override
            public long size() {
                return bytes.length;
            }

            @Override
            public InputStream open() {
                return new ByteArrayInputStream(bytes);
            }

            @Override
            public byte[] bytes() {
                return bytes;
            }
        };
    }

    /** A body in a file. */
    static StoredBody of(Path file, long size) {
        return new StoredBody() {
            @Override
            public long size() {
                return size;
            }

            @Override
            public InputStream open() throws IOException {
                return Files.newInputStream(file);
            }

            /** Read into one array of the file's size, not grown and copied as a stream's would be. */
            @Override
            public byte[] bytes() {
                try {
                    return Files.readAllBytes(file);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
    }
}
