package dev.sluice.io;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A byte range whose place and length are known before its bytes, which are
 * written as their source sends them: one of a dispatch's streams, masked,
 * from the runtime's log ({@code logs}, ADR 0054), or an answer relayed from
 * the replica that holds it. A range holds what it was given (a read slot, a
 * connection) until it is written or closed, whichever comes first; the doors
 * write it without knowing where its bytes come from.
 */
public final class LogRange implements AutoCloseable {

    /** Writes the range's bytes. */
    @FunctionalInterface
    public interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    private final long offset;
    private final long length;
    private final boolean endOfLog;
    private final Body body;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Runnable onClose = () -> {};

    /**
     * @param offset   where it starts in the stream
     * @param length   its bytes, at most the limit asked for
     * @param endOfLog true when the range reaches the end of what the runtime holds
     */
    public LogRange(long offset, long length, boolean endOfLog, Body body) {
        this.offset = offset;
        this.length = length;
        this.endOfLog = endOfLog;
        this.body = body;
    }

    /** A range already in memory. */
    public LogRange(byte[] bytes, long offset, boolean endOfLog) {
        this(offset, bytes.length, endOfLog, out -> out.write(bytes));
    }

    public long offset() {
        return offset;
    }

    public long length() {
        return length;
    }

    public boolean endOfLog() {
        return endOfLog;
    }

    /** Runs {@code action} once, when the range is written or closed, after any action given before. */
    public LogRange whenClosed(Runnable action) {
        Runnable before = onClose;
        this.onClose = () -> {
            before.run();
            action.run();
        };
        return this;
    }

    /** Writes the range's bytes, then lets the range go. */
    public void writeTo(OutputStream out) throws IOException {
        try {
            body.writeTo(out);
        } finally {
            close();
        }
    }

    /** The range's bytes, for a caller that asked for few of them (an MCP answer). */
    public byte[] bytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) length);
        try {
            writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array cannot fail to be written
        }
        return out.toByteArray();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            onClose.run();
        }
    }
}
