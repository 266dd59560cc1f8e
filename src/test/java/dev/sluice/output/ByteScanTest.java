package dev.sluice.output;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The word-at-a-time scans against a byte-at-a-time loop, for every value
 * sought, beside every other byte value, at every alignment and length: a
 * scan that confused a byte with its neighbours (0x0A with 0x0B, 0x8A, 0x00
 * or 0xFF) or lost one at a word's edge would show.
 */
class ByteScanTest {

    private static final byte[] ALL = everyByteBesideEveryOther();

    private static byte[] everyByteBesideEveryOther() {
        byte[] b = new byte[256 * 3];
        for (int i = 0; i < 256; i++) {
            b[3 * i] = (byte) i;
            b[3 * i + 1] = (byte) (i * 7 + 3);
            b[3 * i + 2] = (byte) (255 - i);
        }
        return b;
    }

    @Test
    void countMatchesAPlainLoop() {
        for (int value = 0; value < 256; value += 5) {
            for (int from = 0; from < 16; from++) {
                for (int to = from; to <= ALL.length; to += 13) {
                    long expected = 0;
                    for (int i = from; i < to; i++) {
                        expected += ALL[i] == (byte) value ? 1 : 0;
                    }
                    assertThat(ByteScan.count(ALL, from, to, (byte) value)).isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void indexOfFindsTheFirstMatchOrNone() {
        for (int value = 0; value < 256; value++) {
            for (int from = 0; from < 16; from++) {
                for (int to = from; to <= ALL.length; to += 29) {
                    int expected = -1;
                    for (int i = from; i < to && expected < 0; i++) {
                        expected = ALL[i] == (byte) value ? i : -1;
                    }
                    assertThat(ByteScan.indexOf(ALL, from, to, (byte) value)).isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void newlinesAmongTheirNeighboursAreCountedOnce() {
        byte[] b = {'\n', 0x0B, (byte) 0x8A, 0x00, (byte) 0xFF, '\n', '\n', 0x09, '\n'};
        assertThat(ByteScan.count(b, 0, b.length, (byte) '\n')).isEqualTo(4);
        assertThat(ByteScan.indexOf(b, 1, b.length, (byte) '\n')).isEqualTo(5);
    }

    @Test
    void jsonEscapedFindsEveryByteAnEncoderMayGrowAndOnlyFewOthers() {
        for (int i = 0; i + Long.BYTES <= ALL.length; i++) {
            long found = ByteScan.jsonEscaped(ByteScan.word(ALL, i));
            for (int k = 0; k < Long.BYTES; k++) {
                int c = ALL[i + k] & 0xFF;
                boolean escaped = c < 0x20 || c >= 0x80 || "\"\\<>&".indexOf(c) >= 0;
                boolean flagged = (found >>> (8 * k + 7) & 1) != 0;
                if (escaped) {
                    assertThat(flagged).as("byte %02x", c).isTrue();
                } else if (flagged) {
                    // Only ^ | ~, which share a compare with < > \, or a byte just above a match.
                    assertThat(k > 0 || "^|~".indexOf(c) >= 0)
                            .as("byte %02x", c)
                            .isTrue();
                }
            }
        }
    }

    @Test
    void plainTextIsNotTakenForEscapedBytes() {
        byte[] b = "#$%'=?[]_`az{} 09AZ".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        for (int i = 0; i + Long.BYTES <= b.length; i++) {
            assertThat(ByteScan.jsonEscaped(ByteScan.word(b, i))).isZero();
        }
        byte[] e = "\"&<>\\\u001f\u0080\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThat(Long.bitCount(ByteScan.jsonEscaped(ByteScan.word(e, 0)))).isEqualTo(8);
    }
}
