package dev.sluice.io;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads its stream up to a limit and fails with {@link Exceeded} once more
 * than the limit would be read: a stream of exactly the limit reads to its
 * end, one byte more fails. It never asks its stream for more than one byte
 * past the limit, so neither a gzip bomb nor headers that grow without end
 * make a reader above it read further. What an archive's reader skips counts
 * like what it reads.
 */
public final class LimitedInputStream extends FilterInputStream {

    /** More than the limit was there to be read. */
    public static final class Exceeded extends IOException {
        private static final long serialVersionUID = 1L;

        Exceeded(long limit) {
            super("more than " + limit + " bytes");
        }
    }

    private final long limit;
    private long left;

    public LimitedInputStream(InputStream in, long limit) {
        super(in);
        if (limit < 0) {
            throw new IllegalArgumentException("limit " + limit);
        }
        this.limit = limit;
        this.left = limit;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        int n = super.read(b, off, (int) Math.min(len, left + 1));
        if (n > 0) {
            left -= n;
            if (left < 0) {
                throw new Exceeded(limit);
            }
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        if (n <= 0) {
            return 0;
        }
        int chunk = (int) Math.max(1, Math.min(n, 8192));
        return Math.max(0, read(new byte[chunk], 0, chunk));
    }

    /** Marks would let a reader read the same bytes twice uncounted. */
    @Override
    public boolean markSupported() {
        return false;
    }

    @Override
    public synchronized void mark(int readlimit) {}

    @Override
    public synchronized void reset() throws IOException {
        throw new IOException("mark/reset not supported");
    }

    /** What may still be read before the limit. */
    public long left() {
        return Math.max(0, left);
    }
}
