package dev.sluice.container.engine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * A stream that starts with a prefix (a tar header, say) and then repeats its
 * last byte for ever, counting what was read of it: what a hostile archive
 * looks like to a reader that must stop at its bound.
 */
public final class EndlessArchive extends InputStream {

    private final byte[] prefix;
    private int at;
    /** Bytes read so far. */
    public long count;

    public EndlessArchive(byte[] prefix) {
        this.prefix = prefix;
    }

    /** The tar header of {@code entry}, then data that never ends, whatever size the header states. */
    public static EndlessArchive afterHeader(TarArchiveEntry entry) throws IOException {
        ByteArrayOutputStream header = new ByteArrayOutputStream();
        TarArchiveOutputStream out = new TarArchiveOutputStream(header);
        out.putArchiveEntry(entry);
        out.flush();
        return new EndlessArchive(header.toByteArray());
    }

    @Override
    public int read() {
        count++;
        return (at < prefix.length ? prefix[at++] : prefix[prefix.length - 1]) & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        for (int i = 0; i < len; i++) {
            b[off + i] = (byte) read();
        }
        return len;
    }
}
