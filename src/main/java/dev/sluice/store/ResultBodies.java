package dev.sluice.store;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * Where the store keeps finished results' JSON (ADR 0017): PostgreSQL in the
 * row that names the result, the embedded store in a file of its own beside
 * the database, so that no row is ever megabytes long.
 *
 * <p>A body is {@linkplain #put put} before the transaction that names it and
 * is durable before that transaction commits; if the row is not written after
 * all, the body is {@linkplain #discard discarded}. A row never names a body
 * that is missing or partial.
 */
public interface ResultBodies {

    /** A body ready to be named by a row: the values of its row's columns. */
    record Put(String file, byte[] inRow, long size) {}

    /** What a body is made of, written once into wherever it is kept. */
    @FunctionalInterface
    interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /** Makes a body ready for a row to name. */
    Put put(String dispatchId, Content content);

    /** Gives up a body no row came to name. */
    void discard(Put put);

    /** Forgets the body of a row that is being deleted. */
    void delete(String file);

    /**
     * The body a row names, from its columns; rows written before bodies left
     * the text column ({@code legacyText}) are read from there.
     */
    default Optional<StoredBody> read(String file, byte[] inRow, Long size, String legacyText) {
        if (file != null) {
            return Optional.of(file(file, size == null ? -1 : size));
        }
        if (inRow != null) {
            return Optional.of(StoredBody.of(inRow));
        }
        return Optional.ofNullable(legacyText).map(text -> StoredBody.of(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** The body in a file this store wrote. */
    StoredBody file(String file, long size);

    /** Deletes bodies a crash left that no row names, once older than {@code settled}; returns how many. */
    default int sweep(Duration settled) {
        return 0;
    }

    /** PostgreSQL's way: the body in its row, written in the same transaction. */
    static ResultBodies inRows() {
        return new ResultBodies() {
            @Override
            public Put put(String dispatchId, Content content) {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                try {
                    content.writeTo(bytes);
                } catch (IOException e) {
                    throw new StoreException("encode result of " + dispatchId, e);
                }
                byte[] json = bytes.toByteArray();
                return new Put(null, json, json.length);
            }

            @Override
            public void discard(Put put) {}

            @Override
            public void delete(String file) {}

            @Override
            public StoredBody file(String file, long size) {
                throw new IllegalStateException(
                        "result " + file + " is in a file, and this store keeps bodies in rows");
            }
        };
    }
}
