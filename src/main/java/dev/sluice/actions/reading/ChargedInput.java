package dev.sluice.actions.reading;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A body as it arrives, charged to its grant as its bytes are read (a body
 * that declared no length was charged nothing before), and refused once it
 * runs past the most a body may be: the length bound of a body streamed
 * into the reader, whatever it declared.
 */
final class ChargedInput extends FilterInputStream {

    private static final long CHARGE_EVERY = 64 * 1024;

    private final DecodingBudget.Grant grant;
    private final long max;
    private long read;
    private long charged;

    ChargedInput(InputStream body, DecodingBudget.Grant grant, long max) {
        super(body);
        this.grant = grant;
        this.max = max;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            counted(1);
        }
        return b;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
        int n = super.read(into, offset, length);
        if (n > 0) {
            counted(n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        counted(skipped);
        return skipped;
    }

    private void counted(long n) {
        read += n;
        if (read > max) {
            throw BodyRefused.tooLarge("request bodies may be at most " + max + " bytes; nothing was created");
        }
        if (read - charged >= CHARGE_EVERY) {
            grant.atLeast(read);
            charged = read;
        }
    }
}
