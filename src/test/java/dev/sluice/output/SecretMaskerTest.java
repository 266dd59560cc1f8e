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
    void eachLongEnoughLineOfAMultiLineSecretIsMaskedOnItsOwn() {
        SecretMasker m = new SecretMasker(List.of("-----BEGIN-----\r\nMIIEvQIBADANBgkq\nab\n-----END-----"), 8);
        assertThat(mask(m, "key: MIIEvQIBADANBgkq (line 2)", true, true)).isEqualTo("key: **************** (line 2)");
        assertThat(mask(m, "-----BEGIN-----\n", true, true)).isEqualTo("***************\n");
        // A line shorter than the smallest secret would mask unrelated text: left alone.
        assertThat(mask(m, "ab cd", true, true)).isEqualTo("ab cd");
    }

    @Test
    void base64AndBase64UrlAreMaskedAtEveryAlignmentPaddedOrNot() {
        String secret = "s3cr3t?>value~~";
        SecretMasker m = new SecretMasker(List.of(secret), 8);
        for (int before = 0; before < 6; before++) {
            for (int after = 0; after < 4; after++) {
                for (PrintedSecret.Form form : List.of(
                        PrintedSecret.Form.BASE64,
                        PrintedSecret.Form.BASE64_UNPADDED,
                        PrintedSecret.Form.BASE64URL_UNPADDED)) {
                    PrintedSecret printed = PrintedSecret.of(
                            form,
                            secret,
                            8,
                            new byte[before],
                            "xyz".substring(0, after).getBytes());
                    assertFullyMasked(m, printed, form + " with " + before + " bytes before");
                }
            }
        }
    }

    @Test
    void jsonEscapesAreMaskedAsCommonEncodersWriteThem() {
        String secret = "p\"a\\ss/w\u00f6rd<1>\n\u0001";
        SecretMasker m = new SecretMasker(List.of(secret), 8);
        assertFullyMasked(m, PrintedSecret.of(PrintedSecret.Form.JSON, secret, 8, null, null), "Jackson");
        assertFullyMasked(m, PrintedSecret.of(PrintedSecret.Form.JSON_ASCII, secret, 8, null, null), "Jackson ASCII");
        for (String escaped : List.of(
                "p\\\"a\\\\ss/w\\u00f6rd<1>\\n\\u0001", // Python json.dumps
                "p\\\"a\\\\ss/w\u00f6rd\\u003c1\\u003e\\n\\u0001", // Go encoding/json
                "p\\\"a\\\\ss\\/w\\u00f6rd<1>\\n\\u0001", // PHP json_encode
                "p\\\\\\\"a\\\\\\\\ss/w\u00f6rd<1>\\\\n\\\\u0001")) { // JSON inside a JSON string
            assertThat(mask(m, "{\"k\":\"" + escaped + "\"}", true, true))
                    .as(escaped)
                    .isEqualTo("{\"k\":\"" + "*".repeat(escaped.getBytes(StandardCharsets.UTF_8).length) + "\"}");
        }
    }

    @Test
    void urlEncodingsAreMaskedWithEitherSpaceAndEitherHexCase() {
        String secret = "pa ss/w\u00f6rd&x=1~";
        SecretMasker m = new SecretMasker(List.of(secret), 8);
        assertFullyMasked(m, PrintedSecret.of(PrintedSecret.Form.URL_FORM, secret, 8, null, null), "form");
        assertFullyMasked(m, PrintedSecret.of(PrintedSecret.Form.URL_PERCENT, secret, 8, null, null), "percent");
        for (String encoded : List.of(
                "pa%20ss%2Fw%C3%B6rd%26x%3D1~", // JavaScript encodeURIComponent
                "pa%20ss/w%C3%B6rd%26x%3D1~", // Python quote
                "pa+ss%2fw%c3%b6rd%26x%3d1%7e")) { // lower-case hex
            assertThat(mask(m, "?token=" + encoded + "&next", true, true))
                    .as(encoded)
                    .isEqualTo("?token=" + "*".repeat(encoded.length()) + "&next");
        }
    }

    @Test
    void overlappingFormsOfDifferentSecretsAreMergedAndTheLongestWins() {
        SecretMasker m = new SecretMasker(List.of("abcdefgh", "abcdefgh-longer", "fgh-lo-and-more"), 8);
        assertThat(mask(m, "[abcdefgh-longer]", true, true)).isEqualTo("[***************]");
        assertThat(mask(m, "[abcdefgh-lo-and-more]", true, true)).isEqualTo("[********************]");
    }

    @Test
    void theHeldBackMarginIsTheLongestFormLessOne() {
        // A control character is six bytes in a JSON \\u escape, seven escaped twice: the longest form.
        SecretMasker m = new SecretMasker(List.of("\u0001".repeat(8)), 8);
        assertThat(m.margin()).isEqualTo(8 * 7 - 1);
    }

    @Test
    void messagesAndFailuresAreMaskedTheirStacksKept() {
        SecretMasker m = new SecretMasker(List.of("hunter2-value"), 8);
        assertThat(m.mask("refused: hunter2-value")).isEqualTo("refused: *************");
        IllegalStateException failure =
                new IllegalStateException("bad hunter2-value", new RuntimeException("aHVudGVyMi12YWx1ZQ"));
        Throwable masked = m.mask(failure);
        assertThat(masked.toString()).isEqualTo("java.lang.IllegalStateException: bad *************");
        assertThat(masked.getCause().toString()).doesNotContain("VudGVyMi12YWx1ZQ");
        assertThat(masked.getStackTrace()).isEqualTo(failure.getStackTrace());
        assertThat(SecretMasker.NONE.mask(failure)).isSameAs(failure);
    }

    private static void assertFullyMasked(SecretMasker m, PrintedSecret printed, String what) {
        byte[] line = printed.bytes().clone();
        m.mask(line, 0, line.length, true, true);
        for (int i = 0; i < line.length; i++) {
            if (printed.mustMask()[i]) {
                assertThat((char) line[i])
                        .as("%s: byte %d of %s", what, i, new String(printed.bytes()))
                        .isEqualTo('*');
            }
        }
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
