package dev.sluice.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The bound counted while a stream is written against the exact size of the
 * {@code json-file} records the runtime writes for it: the copier's message
 * cuts (each newline, each 16 KiB of a line without one, the end) and the
 * driver's escaping, as Engine 20.10 does them, done here the slow way.
 */
class JsonFileLogSizeTest {

    /** A record read from a container's log on this engine: the frame and the escapes are the driver's. */
    private static final String REAL_RECORD =
            "{\"log\":\"a\\u003cb\\\"\\\\\\n\",\"stream\":\"stdout\",\"time\":\"2026-11-23T21:42:17.516484408Z\"}\n";

    /** Exact bytes of records for a stream: one per message, the text escaped as the driver escapes it. */
    static long exactRecords(byte[] stream) {
        long total = 0;
        int lineStart = 0;
        while (lineStart < stream.length) {
            int newline = indexOf(stream, lineStart, (byte) '\n');
            int lineEnd = newline < 0 ? stream.length : newline;
            int at = lineStart;
            while (lineEnd - at >= JsonFileLogSize.MESSAGE_BYTES) {
                total += record(stream, at, at + JsonFileLogSize.MESSAGE_BYTES, false);
                at += JsonFileLogSize.MESSAGE_BYTES;
            }
            if (newline >= 0) {
                total += record(stream, at, lineEnd, true);
            } else if (at < lineEnd) {
                total += record(stream, at, lineEnd, false);
            }
            lineStart = newline < 0 ? stream.length : newline + 1;
        }
        return total;
    }

    /** One record, its timestamp at its longest (nanoseconds that end in zeros are written shorter). */
    private static long record(byte[] b, int from, int to, boolean line) {
        long text = 0;
        for (int i = from; i < to; ) {
            int unit = Utf8.finalUnit(b, i, to);
            int c = b[i] & 0xFF;
            if (unit < 0) {
                text += 6; // an ill-formed byte, each alone, as an escaped U+FFFD
                i++;
            } else if (unit > 1) {
                boolean separator = c == 0xE2 && (b[i + 1] & 0xFF) == 0x80 && ((b[i + 2] & 0xFF) | 1) == 0xA9;
                text += separator ? 6 : unit;
                i += unit;
            } else {
                text += switch (c) {
                    case '"', '\\', '\n', '\r' -> 2;
                    case '<', '>', '&' -> 6;
                    default -> c < 0x20 ? 6 : 1;
                };
                i++;
            }
        }
        return text + (line ? 2 : 0) + JsonFileLogSize.RECORD_FRAME;
    }

    private static int indexOf(byte[] b, int from, byte value) {
        for (int i = from; i < b.length; i++) {
            if (b[i] == value) {
                return i;
            }
        }
        return -1;
    }

    private static long bound(byte[] stream, List<Integer> chunks) {
        JsonFileLogSize size = new JsonFileLogSize();
        Chunks.feed(stream, chunks, size::update);
        return size.bound();
    }

    @Test
    void theFrameIsThatOfARealRecordWithTheLongestTimestamp() {
        byte[] written = "a<b\"\\\n".getBytes(StandardCharsets.UTF_8);
        assertThat(REAL_RECORD.length()).isEqualTo(exactRecords(written));
        assertThat(REAL_RECORD.length() - "a\\u003cb\\\"\\\\\\n".length()).isEqualTo(JsonFileLogSize.RECORD_FRAME);
        assertThat(bound(written, List.of(3))).isGreaterThanOrEqualTo(REAL_RECORD.length());
    }

    @Test
    void plainLinesCostTheirBytesAFrameAndTheEscapedNewline() {
        byte[] lines = "0123456789\n".repeat(1000).getBytes(StandardCharsets.UTF_8);
        // The one message more than there are lines is the end of the stream, which is empty here.
        assertThat(bound(lines, List.of(4096)))
                .isEqualTo(11_000 + 1000 + 1001L * JsonFileLogSize.RECORD_FRAME)
                .isGreaterThanOrEqualTo(exactRecords(lines));
    }

    @Test
    void nothingWrittenTakesNothing() {
        assertThat(new JsonFileLogSize().bound()).isZero();
    }

    @Property(tries = 300)
    void theBoundIsNeverBelowTheRecordsTheDriverWrites(
            @ForAll("streams") byte[] stream, @ForAll("chunkSizes") List<Integer> chunks) {
        assertThat(bound(stream, chunks)).isGreaterThanOrEqualTo(exactRecords(stream));
    }

    @Provide
    Arbitrary<byte[]> streams() {
        return Arbitraries.oneOf(
                Arbitraries.bytes().array(byte[].class).ofMaxSize(5000),
                Arbitraries.of((byte) '\n', (byte) 'a', (byte) '<', (byte) 0xE2, (byte) 0x80, (byte) 0xA8, (byte) 0x01)
                        .array(byte[].class)
                        .ofMaxSize(5000),
                // Long lines, cut into messages of 16 KiB, some of them exactly.
                Arbitraries.of((byte) 'a', (byte) 'a', (byte) 'a', (byte) '"', (byte) 0xC3, (byte) 0xA9)
                        .array(byte[].class)
                        .ofMinSize(16_000)
                        .ofMaxSize(50_000)
                        .map(JsonFileLogSizeTest::maybeNewlineAtACut));
    }

    private static byte[] maybeNewlineAtACut(byte[] b) {
        if (b.length > JsonFileLogSize.MESSAGE_BYTES && b.length % 2 == 0) {
            b[JsonFileLogSize.MESSAGE_BYTES] = '\n';
        }
        return b;
    }

    @Provide
    Arbitrary<List<Integer>> chunkSizes() {
        return Arbitraries.integers()
                .between(0, 8192)
                .list()
                .ofMinSize(1)
                .ofMaxSize(6)
                .filter(l -> l.stream().anyMatch(n -> n > 0));
    }
}
