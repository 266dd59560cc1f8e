package dev.sluice.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.Test;

class LimitedInputStreamTest {

    private static InputStream bytes(int n) {
        byte[] data = new byte[n];
        for (int i = 0; i < n; i++) {
            data[i] = (byte) i;
        }
        return new ByteArrayInputStream(data);
    }

    @Test
    void aStreamOfExactlyTheLimitReadsToItsEnd() throws IOException {
        LimitedInputStream in = new LimitedInputStream(bytes(1000), 1000);
        byte[] all = in.readAllBytes();
        assertThat(all).hasSize(1000);
        assertThat(all[999]).isEqualTo((byte) 999);
        assertThat(in.read()).isEqualTo(-1);
        assertThat(in.read(new byte[10], 0, 10)).isEqualTo(-1);
        assertThat(in.left()).isZero();
    }

    @Test
    void oneByteMoreFailsInBulkAndByByte() {
        assertThatThrownBy(() -> new LimitedInputStream(bytes(1001), 1000).readAllBytes())
                .isInstanceOf(LimitedInputStream.Exceeded.class)
                .hasMessage("more than 1000 bytes");
        LimitedInputStream single = new LimitedInputStream(bytes(3), 2);
        assertThatThrownBy(() -> {
                    while (single.read() >= 0) {
                        // reads one byte at a time
                    }
                })
                .isInstanceOf(LimitedInputStream.Exceeded.class);
    }

    @Test
    void itNeverAsksForMoreThanOneBytePastTheLimit() throws IOException {
        CountingStream source = new CountingStream(bytes(1 << 20));
        LimitedInputStream in = new LimitedInputStream(source, 100);
        assertThatThrownBy(() -> in.read(new byte[4096], 0, 4096)).isInstanceOf(LimitedInputStream.Exceeded.class);
        assertThat(source.delivered).isEqualTo(101);
    }

    @Test
    void whatIsSkippedCountsAsRead() throws IOException {
        LimitedInputStream in = new LimitedInputStream(bytes(50), 40);
        assertThat(in.skip(0)).isZero();
        assertThat(in.skip(30)).isEqualTo(30);
        assertThat(in.left()).isEqualTo(10);
        assertThatThrownBy(() -> in.skip(30)).isInstanceOf(LimitedInputStream.Exceeded.class);
    }

    @Test
    void marksAreRefusedSoNothingIsReadTwiceUncounted() throws IOException {
        LimitedInputStream in = new LimitedInputStream(bytes(10), 5);
        assertThat(in.markSupported()).isFalse();
        in.mark(100);
        assertThat(in.readNBytes(5)).hasSize(5);
        assertThatThrownBy(in::reset).isInstanceOf(IOException.class);
        assertThatThrownBy(in::read).isInstanceOf(LimitedInputStream.Exceeded.class);
    }

    @Test
    void aGzipBombIsStoppedAtTheLimitOfWhatItInflatesTo() throws IOException {
        java.io.ByteArrayOutputStream packed = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream gzip = new java.util.zip.GZIPOutputStream(packed)) {
            gzip.write(new byte[64 << 20]);
        }
        assertThat(packed.size()).isLessThan(100_000);
        CountingStream inflated =
                new CountingStream(new GZIPInputStream(new ByteArrayInputStream(packed.toByteArray())));
        assertThatThrownBy(() -> new LimitedInputStream(inflated, 1 << 20).readAllBytes())
                .isInstanceOf(LimitedInputStream.Exceeded.class);
        assertThat(inflated.delivered).isEqualTo((1 << 20) + 1);
    }

    @Test
    void aNegativeLimitIsRefused() {
        assertThatThrownBy(() -> new LimitedInputStream(bytes(1), -1)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Counts the bytes it handed out. */
    private static final class CountingStream extends java.io.FilterInputStream {
        long delivered;

        CountingStream(InputStream in) {
            super(in);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                delivered += n;
            }
            return n;
        }
    }
}
