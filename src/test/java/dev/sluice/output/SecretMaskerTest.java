package dev.sluice.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.StringLength;

class SecretMaskerTest {

    private static String mask(SecretMasker masker, String text, boolean start, boolean end) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        masker.mask(b, 0, b.length, start, end);
        return new String(b, StandardCharsets.UTF_8);
    }

    @Test
    void everyOccurrenceIsMaskedKeepingLengths() {
        SecretMasker m = new SecretMasker(List.of("hunter2"), 8);
        assertThat(mask(m, "pw=hunter2 again hunter2.", true, true)).isEqualTo("pw=******* again *******.");
    }

    @Test
    void overlappingSecretsAreAllMasked() {
        SecretMasker m = new SecretMasker(List.of("abcd", "cdef"), 8);
        assertThat(mask(m, "xabcdefx", true, true)).isEqualTo("x******x");
    }

    @Test
    void multibyteSecretsBecomeAsciiStars() {
        SecretMasker m = new SecretMasker(List.of("p\u00e4ss"), 8);
        assertThat(mask(m, "[p\u00e4ss]", true, true)).isEqualTo("[*****]");
    }

    @Test
    void partialSecretsAtCutEdgesAreMasked() {
        SecretMasker m = new SecretMasker(List.of("TOPSECRET"), 8);
        assertThat(mask(m, "CRET and more", false, true)).isEqualTo("**** and more");
        assertThat(mask(m, "text then TOPS", true, false)).isEqualTo("text then ****");
        // At the stream's own start and end there is nothing cut, so nothing partial to mask.
        assertThat(mask(m, "CRET and TOPS", true, true)).isEqualTo("CRET and TOPS");
    }

    @Test
    void emptyAndNullValuesAreIgnored() {
        SecretMasker m = new SecretMasker(java.util.Arrays.asList("", null), 8);
        assertThat(m.isEmpty()).isTrue();
        assertThat(m.margin()).isZero();
    }

    @Property(tries = 300)
    void noWindowEverShowsTheSecret(
            @ForAll @AlphaChars @StringLength(min = 4, max = 12) String secret,
            @ForAll @StringLength(max = 200) String before,
            @ForAll @StringLength(max = 200) String after,
            @ForAll int cutSeed) {
        SecretMasker m = new SecretMasker(List.of(secret), 8);
        byte[] stream = (before + secret + after).getBytes(StandardCharsets.UTF_8);
        // Any window of the stream, masked as a window, must not show the secret or a piece of
        // it where the window's edge cuts through an occurrence.
        int from = Math.floorMod(cutSeed, stream.length + 1);
        int to = from + Math.floorMod(cutSeed >>> 7, stream.length - from + 1);
        byte[] window = java.util.Arrays.copyOfRange(stream, from, to);
        m.mask(window, 0, window.length, from == 0, to == stream.length);
        assertThat(window).hasSize(to - from);
        assertThat(new String(window, StandardCharsets.UTF_8)).doesNotContain(secret);
        int secretStart = before.getBytes(StandardCharsets.UTF_8).length;
        int secretEnd = secretStart + secret.length();
        for (int i = Math.max(from, secretStart); i < Math.min(to, secretEnd); i++) {
            assertThat(window[i - from])
                    .as("byte %d of the secret", i - secretStart)
                    .isEqualTo((byte) '*');
        }
    }
}
