package dev.sluice.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;

import org.junit.jupiter.api.Test;

/** Replacement follows the Unicode standard, chapter 3, "U+FFFD Substitution of Maximal Subparts". */
class Utf8Test {

    private static String decode(String hex) {
        byte[] b = HexFormat.of().parseHex(hex.replace(" ", ""));
        byte[] out = new byte[(int) Utf8.sanitizedLength(b, 0, b.length)];
        assertThat(Utf8.sanitize(b, 0, b.length, out, 0)).isEqualTo(out.length);
        return new String(out, java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void standardsExampleOfMaximalSubparts() {
        // Table 3-8: 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64
        assertThat(decode("61 F1 80 80 E1 80 C2 62 80 63 80 BF 64"))
                .isEqualTo("a\uFFFD\uFFFD\uFFFDb\uFFFDc\uFFFD\uFFFDd");
    }

    @Test
    void encodedSurrogatesBecomeOneReplacementPerByte() {
        // Table 3-10: ED A0 80 ED BF BF ED AF 41
        assertThat(decode("ED A0 80 ED BF BF ED AF 41")).isEqualTo("\uFFFD".repeat(8) + "A");
    }

    @Test
    void overlongAndOutOfRangeFormsAreRefused() {
        // Table 3-9: C0 AF E0 80 BF F0 81 82 41 and F4 90 80 80
        assertThat(decode("C0 AF E0 80 BF F0 81 82 41")).isEqualTo("\uFFFD".repeat(8) + "A");
        assertThat(decode("F4 90 80 80")).isEqualTo("\uFFFD".repeat(4));
    }

    @Test
    void wellFormedSequencesOfEveryLengthDecode() {
        assertThat(decode("41 C3 A9 E2 82 AC F0 9F 98 80")).isEqualTo("A\u00e9\u20ac\uD83D\uDE00");
    }

    @Test
    void aSequenceCutByTheEndOfTheStreamIsOneReplacement() {
        assertThat(decode("41 F0 9F 98")).isEqualTo("A\uFFFD");
    }

    @Test
    void unitReportsASequenceTheBufferEndsInside() {
        byte[] b = HexFormat.of().parseHex("F09F98");
        assertThat(Utf8.unit(b, 0, 3)).isEqualTo(Utf8.INCOMPLETE);
        assertThat(Utf8.finalUnit(b, 0, 3)).isEqualTo(-3);
    }
}
