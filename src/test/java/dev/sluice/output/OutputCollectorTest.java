package dev.sluice.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

class OutputCollectorTest {

    private static final int CAP = 1024;
    private static final String LOG = "/v1/dispatches/d-1/logs/stdout";
    private static final String NONCE = "Zx3-q_8Lw0Ab";

    private static OutputCollector collector() {
        return collector(CAP);
    }

    private static OutputCollector collector(int cap) {
        return new OutputCollector("stdout", cap, LOG, NONCE, SecretMasker.NONE);
    }

    private static CapturedOutput collect(byte[] input) {
        OutputCollector c = collector();
        c.write(input, 0, input.length);
        return c.finish();
    }

    private static byte[] ascii(int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) ('a' + i % 26);
        }
        return b;
    }

    private static int utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    @Test
    void emptyStreamIsEmptyWithoutOverflow() {
        CapturedOutput out = collector().finish();
        assertThat(out.text().toString()).isEmpty();
        assertThat(out.originalBytes()).isZero();
        assertThat(out.overflow()).isNull();
    }

    @Test
    void aMarkerSaysFromWhichByteTheLogHoldsTheStreamWhenItsBeginningIsGone() {
        byte[] input = ascii(1 << 20);
        for (long from : new long[] {1, 1 << 19, (1 << 20) - 1}) {
            OutputCollector c = collector();
            c.write(input, 0, input.length);
            CapturedOutput out = c.finish(from);
            assertThat(out.text().toString())
                    .contains(" bytes of stdout omitted; log from byte " + from + ": " + LOG + " ...]\n")
                    .doesNotContain("full log");
            assertThat(out.overflow().keptBytes()).isLessThanOrEqualTo(CAP);
            assertThat(utf8(out.text().toString()))
                    .isEqualTo((int) out.overflow().keptBytes());
        }
        OutputCollector whole = collector();
        whole.write(input, 0, input.length);
        assertThat(whole.finish(0).text().toString()).contains("omitted; full log: " + LOG + " ...]");
    }

    @Test
    void outputUpToTheCapComesBackUnchanged() {
        for (int length : new int[] {1, CAP - 1, CAP}) {
            byte[] input = ascii(length);
            CapturedOutput out = collect(input);
            assertThat(out.text().toString()).isEqualTo(new String(input, StandardCharsets.US_ASCII));
            assertThat(out.overflow()).isNull();
            assertThat(out.originalBytes()).isEqualTo(length);
        }
    }

    @Test
    void oneByteOverTheCapIsTruncatedWithMarkerAndOverflow() {
        byte[] input = ascii(CAP + 1);
        CapturedOutput out = collect(input);

        Truncated t = Truncated.parse(out.text().toString());
        String whole = new String(input, StandardCharsets.US_ASCII);
        assertThat(whole).startsWith(t.head()).endsWith(t.tail());
        assertThat(t.head()).isNotEmpty();
        assertThat(t.tail()).isNotEmpty();
        assertThat(t.original()).isEqualTo(CAP + 1);
        assertThat(t.stream()).isEqualTo("stdout");
        assertThat(t.fullLog()).isEqualTo(LOG);
        assertThat(t.nonce()).isEqualTo(NONCE);
        assertThat(t.dropped()).isEqualTo(CAP + 1 - t.head().length() - t.tail().length());
        assertThat(out.overflow())
                .isEqualTo(new Overflow(CAP + 1, utf8(out.text().toString()), t.dropped(), NONCE));
        assertThat(out.overflow().keptBytes()).isLessThanOrEqualTo(CAP);
    }

    @Test
    void tailGetsThreeTimesTheRoomOfTheHead() {
        CapturedOutput out = collect(ascii(100_000));
        Truncated t = Truncated.parse(out.text().toString());
        assertThat(t.tail().length())
                .isBetween(3 * t.head().length() - 3, 3 * t.head().length() + 3);
    }

    @Test
    void multibyteCharacterStraddlingEitherCutIsNeverSplit() {
        byte[] euro = "\u20ac".getBytes(StandardCharsets.UTF_8);
        byte[] emoji = "\uD83D\uDE00".getBytes(StandardCharsets.UTF_8);
        for (byte[] character : new byte[][] {euro, emoji}) {
            // Wherever the character sits, one of the offsets puts it across the head
            // cut, the tail cut, the head buffer's end or the ring's oldest byte.
            for (int at = 0; at < 2 * CAP; at++) {
                byte[] input = ascii(2 * CAP + 10);
                System.arraycopy(character, 0, input, at, character.length);
                CapturedOutput out = collect(input);
                String whole = new String(input, StandardCharsets.UTF_8);

                assertThat(out.text().toString()).doesNotContain("\uFFFD");
                Truncated t = Truncated.parse(out.text().toString());
                assertThat(whole).startsWith(t.head()).endsWith(t.tail());
                assertThat(out.overflow().keptBytes())
                        .isEqualTo(utf8(out.text().toString()))
                        .isLessThanOrEqualTo(CAP);
                assertThat(t.dropped()).isEqualTo(input.length - utf8(t.head()) - utf8(t.tail()));
            }
        }
    }

    @Test
    void invalidBytesBecomeReplacementCharactersAndStillCount() {
        byte[] input = ascii(3 * CAP);
        for (int i = 0; i < input.length; i += 97) {
            input[i] = (byte) 0xFF;
        }
        CapturedOutput out = collect(input);
        Truncated t = Truncated.parse(out.text().toString());
        assertThat(t.original()).isEqualTo(3 * CAP);
        assertThat(out.text().toString()).contains("\uFFFD");
        assertThat(utf8(out.text().toString()))
                .isEqualTo(out.overflow().keptBytes())
                .isLessThanOrEqualTo(CAP);
        String whole = new String(input, StandardCharsets.UTF_8);
        assertThat(whole).startsWith(t.head()).endsWith(t.tail());
    }

    @Test
    void invalidBytesRightAtTheCutsStayInBounds() {
        for (int at = 0; at < 2 * CAP; at++) {
            byte[] input = ascii(2 * CAP);
            input[at] = (byte) 0xE2; // a lead byte with no continuation
            if (at + 1 < input.length) {
                input[at + 1] = (byte) 0x82;
            }
            CapturedOutput out = collect(input);
            assertThat(utf8(out.text().toString()))
                    .isEqualTo(out.overflow().keptBytes())
                    .isLessThanOrEqualTo(CAP);
            Truncated t = Truncated.parse(out.text().toString());
            String whole = new String(input, StandardCharsets.UTF_8);
            assertThat(whole).startsWith(t.head()).endsWith(t.tail());
        }
    }

    @Test
    void rawBytesWithinTheCapThatDecodeLongerAreTruncatedNotOverrun() {
        byte[] input = new byte[CAP];
        Arrays.fill(input, (byte) 0xFF); // each becomes a 3-byte U+FFFD
        CapturedOutput out = collect(input);
        assertThat(out.overflow()).isNotNull();
        assertThat(utf8(out.text().toString()))
                .isEqualTo(out.overflow().keptBytes())
                .isLessThanOrEqualTo(CAP);
        assertThat(out.overflow().originalBytes()).isEqualTo(CAP);
    }

    @Test
    void oneHugeLineWithoutNewlineIsCutOnCharacterBoundaries() {
        byte[] unit = "\u00e9".getBytes(StandardCharsets.UTF_8); // 2 bytes
        byte[] input = new byte[10 * 1024 * 1024];
        for (int i = 0; i < input.length; i += 2) {
            System.arraycopy(unit, 0, input, i, 2);
        }
        CapturedOutput out = collect(input);
        Truncated t = Truncated.parse(out.text().toString());
        assertThat(t.head()).matches("\u00e9+");
        assertThat(t.tail()).matches("\u00e9+");
        assertThat(t.original()).isEqualTo(input.length);
        assertThat(utf8(out.text().toString())).isLessThanOrEqualTo(CAP);
    }

    @Test
    void cutsMoveToNearbyLineBreaksAndKeepCrLfWhole() {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; lines.length() < 20 * CAP; i++) {
            lines.append("line ").append(i).append("\r\n");
        }
        CapturedOutput out = collect(lines.toString().getBytes(StandardCharsets.UTF_8));
        Truncated t = Truncated.parse(out.text().toString());
        assertThat(t.head()).endsWith("\r\n");
        assertThat(t.tail()).startsWith("line ");
        assertThat(lines.toString()).startsWith(t.head()).endsWith(t.tail());
        // Framed by its own newline even after a complete line, so head and tail split back exactly.
        assertThat(out.text().toString()).contains("\r\n\n[... sluice " + NONCE + ": ");
    }

    @Test
    void markerStartsItsOwnLineWhenTheHeadEndsMidLine() {
        CapturedOutput out = collect(ascii(10 * CAP));
        assertThat(out.text().toString())
                .containsPattern("[a-z]\\n\\[\\.\\.\\. sluice " + NONCE
                        + ": \\d+ of 10240 bytes of stdout omitted; full log: " + LOG + " \\.\\.\\.]\\n[a-z]");
    }

    @Test
    void zeroLengthChunksChangeNothing() {
        byte[] input = ascii(3 * CAP);
        OutputCollector c = collector();
        for (int i = 0; i < input.length; i++) {
            c.write(input, i, 0);
            c.write(input, i, 1);
            c.write(new byte[0], 0, 0);
        }
        assertThat(c.finish()).isEqualTo(collect(input));
    }

    @Test
    void splittingTheInputAtAnyOffsetGivesTheSameResult() {
        byte[] input =
                ("h\u00e9llo w\u00f6rld \uD83D\uDE00 \u20ac\n").repeat(200).getBytes(StandardCharsets.UTF_8);
        input[1500] = (byte) 0xC3; // and one ill-formed byte
        CapturedOutput once = collect(input);
        for (int split = 0; split <= input.length; split++) {
            OutputCollector c = collector();
            c.write(input, 0, split);
            c.write(input, split, input.length - split);
            assertThat(c.finish()).as("split at %d", split).isEqualTo(once);
        }
    }

    @Test
    void callerMayReuseItsBufferAfterWriteReturns() {
        byte[] input = ascii(5 * CAP + 7);
        byte[] reused = new byte[1024];
        OutputCollector c = collector();
        for (int off = 0; off < input.length; off += reused.length) {
            int n = Math.min(reused.length, input.length - off);
            System.arraycopy(input, off, reused, 0, n);
            c.write(reused, 0, n);
            Arrays.fill(reused, (byte) '#');
        }
        CapturedOutput out = c.finish();
        assertThat(out).isEqualTo(collect(input));
        assertThat(out.text().toString()).doesNotContain("#");
    }

    @Test
    void countsPastFourGibibytesWithoutOverflowingAndMemoryStaysWithinTheCap() {
        byte[] chunk = ascii(1 << 20);
        OutputCollector c = collector();
        long total = 0;
        for (int i = 0; i < 5 * 1024 + 3; i++) {
            c.write(chunk, 0, chunk.length);
            total += chunk.length;
        }
        assertThat(c.bytesWritten()).isEqualTo(total).isGreaterThan(4L << 30);
        assertThat(c.bytesAllocated()).isLessThanOrEqualTo(CAP);
        CapturedOutput out = c.finish();
        assertThat(out.overflow().originalBytes()).isEqualTo(total);
        assertThat(Truncated.parse(out.text().toString()).original()).isEqualTo(total);
    }

    @Test
    void aSmallStreamHoldsLittleMemoryUnderALargeCap() {
        OutputCollector c = collector(4 << 20);
        byte[] kib = ascii(1024);
        c.write(kib, 0, kib.length);
        // The head's first kilobyte; the tail is not allocated until the head is full.
        assertThat(c.bytesAllocated()).isEqualTo(1024);
        assertThat(c.finish().text().toString()).hasSize(1024);
    }

    @Test
    void capsTooSmallForTheMarkerAreRefused() {
        assertThatThrownBy(() -> collector(100))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least")
                .hasMessageContaining(String.valueOf(OutputCollector.MIN_CAP));
    }
}
