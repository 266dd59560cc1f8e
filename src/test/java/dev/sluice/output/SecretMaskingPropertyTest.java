package dev.sluice.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Issue 14, item 4: a secret printed in any of its common forms, amid other
 * text, and the stream cut into writes at every offset and in random chunks,
 * never shows in the collector's text, its digest or a window of it, and
 * nothing else is masked but what the rules say: every occurrence of a form of
 * a secret (checked against a plain search for each form) and, at a cut edge,
 * a piece of one.
 */
class SecretMaskingPropertyTest {

    private static final int MIN_PART = 8;
    private static final String LOG = "/v1/dispatches/m/logs/stdout";
    private static final String NONCE = "m4sk1ng-n0nc";

    @Property(tries = 250)
    void noFormLeaksAtAnySplitOffsetOrChunking(
            @ForAll("secrets") String secret,
            @ForAll PrintedSecret.Form form,
            @ForAll("noise") String before,
            @ForAll("noise") String after,
            @ForAll("blobBytes") byte[] blobBefore,
            @ForAll("blobBytes") byte[] blobAfter,
            @ForAll("chunkSizes") List<Integer> chunks) {
        SecretMasker masker = new SecretMasker(List.of(secret), MIN_PART);
        PrintedSecret printed = PrintedSecret.of(form, secret, MIN_PART, blobBefore, blobAfter);
        byte[] stream = concat(utf8(before), printed.bytes(), utf8(after));
        int at = utf8(before).length;

        byte[] masked = stream.clone();
        masker.mask(masked, 0, masked.length, true, true);
        for (int i = 0; i < printed.mustMask().length; i++) {
            if (printed.mustMask()[i]) {
                assertThat((char) masked[at + i])
                        .as("byte %d of the printed %s", i, form)
                        .isEqualTo('*');
            }
        }
        assertThat(masked).as("only occurrences of forms are masked").isEqualTo(reference(stream, secret));

        StreamDigest digest = StreamDigesterTest.reference(masked);
        for (int split = 0; split <= stream.length; split++) {
            OutputCollector c = collector(masker, 4096);
            c.write(stream, 0, split);
            c.write(stream, split, stream.length - split);
            CapturedOutput out = c.finish();
            assertThat(out.text().toString()).isEqualTo(new String(masked, StandardCharsets.UTF_8));
            assertThat(out.digest()).isEqualTo(digest);
        }
        assertThat(collect(stream, chunks, masker, 4096).digest()).isEqualTo(digest);
    }

    /**
     * Cut to a small cap, the kept head and tail are the stream masked whole,
     * or more masked where a cut goes through a form: never less.
     */
    @Property(tries = 150)
    void theKeptEndsOfACutStreamShowNoForm(
            @ForAll("secrets") String secret,
            @ForAll PrintedSecret.Form form,
            @ForAll @IntRange(min = 0, max = 3000) int fill,
            @ForAll("chunkSizes") List<Integer> chunks) {
        SecretMasker masker = new SecretMasker(List.of(secret), MIN_PART);
        PrintedSecret printed = PrintedSecret.of(form, secret, MIN_PART, new byte[fill % 3], new byte[0]);
        byte[] filler = "x".repeat(fill).getBytes(StandardCharsets.US_ASCII);
        byte[] stream = concat(filler, printed.bytes(), filler, printed.bytes(), filler);
        byte[] masked = stream.clone();
        masker.mask(masked, 0, masked.length, true, true);

        CapturedOutput out = collect(stream, chunks, masker, 1024);
        if (!out.truncated()) {
            assertThat(out.text().toString()).isEqualTo(new String(masked, StandardCharsets.UTF_8));
            return;
        }
        Truncated t = Truncated.parse(out.text().toString());
        assertNoLessMasked(utf8(t.head()), masked, 0);
        assertNoLessMasked(utf8(t.tail()), masked, masked.length - utf8(t.tail()).length);
    }

    /** A range read of the stream, masked with the margin around it as the logs endpoint reads it, shows no form. */
    @Property(tries = 250)
    void aRangeReadWithItsMarginShowsNoForm(
            @ForAll("secrets") String secret,
            @ForAll PrintedSecret.Form form,
            @ForAll("noise") String before,
            @ForAll @IntRange(min = 0, max = 200) int offsetSeed,
            @ForAll @IntRange(min = 1, max = 200) int limit) {
        SecretMasker masker = new SecretMasker(List.of(secret), MIN_PART);
        PrintedSecret printed = PrintedSecret.of(form, secret, MIN_PART, new byte[offsetSeed % 3], new byte[0]);
        byte[] stream = concat(utf8(before), printed.bytes(), utf8(before));
        byte[] masked = stream.clone();
        masker.mask(masked, 0, masked.length, true, true);

        int offset = offsetSeed % (stream.length + 1);
        int windowStart = Math.max(0, offset - masker.margin());
        int windowEnd = Math.min(stream.length, offset + limit + masker.margin());
        byte[] window = Arrays.copyOfRange(stream, windowStart, windowEnd);
        masker.mask(window, 0, window.length, windowStart == 0, windowEnd == stream.length);
        int to = Math.min(stream.length, offset + limit);
        assertThat(Arrays.copyOfRange(window, offset - windowStart, to - windowStart))
                .isEqualTo(Arrays.copyOfRange(masked, offset, to));
    }

    private static void assertNoLessMasked(byte[] kept, byte[] masked, int at) {
        for (int i = 0; i < kept.length; i++) {
            if (kept[i] != '*') {
                assertThat(kept[i]).as("kept byte %d", at + i).isEqualTo(masked[at + i]);
            }
        }
    }

    /** Every occurrence of every form masked, found by a plain search for each. */
    private static byte[] reference(byte[] stream, String secret) {
        byte[] out = stream.clone();
        for (byte[] form : SecretVariants.of(secret, MIN_PART)) {
            for (int i = 0; i + form.length <= stream.length; i++) {
                if (Arrays.equals(stream, i, i + form.length, form, 0, form.length)) {
                    Arrays.fill(out, i, i + form.length, (byte) '*');
                }
            }
        }
        return out;
    }

    private static CapturedOutput collect(byte[] stream, List<Integer> chunks, SecretMasker masker, int cap) {
        OutputCollector c = collector(masker, cap);
        Chunks.feed(stream, chunks, c::write);
        return c.finish();
    }

    private static OutputCollector collector(SecretMasker masker, int cap) {
        return new OutputCollector("stdout", cap, LOG, NONCE, masker);
    }

    @Provide
    Arbitrary<String> secrets() {
        // Characters every encoder treats differently: quotes, slashes, controls, spaces, non-ASCII.
        return Arbitraries.strings()
                .withChars("aZ09-_ \"\\/\n\t<>&+%=\u00e9\u20ac\u0001")
                .withChars('\uD83D')
                .ofMinLength(8)
                .ofMaxLength(24)
                .map(SecretMaskingPropertyTest::wellFormed)
                .filter(s -> utf8(s).length >= MIN_PART);
    }

    @Provide
    Arbitrary<String> noise() {
        return Arbitraries.strings().withChars("ab=+/ \n{}\"%\\").ofMaxLength(40);
    }

    @Provide
    Arbitrary<byte[]> blobBytes() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(5);
    }

    @Provide
    Arbitrary<List<Integer>> chunkSizes() {
        return Arbitraries.integers().between(1, 64).list().ofMinSize(1).ofMaxSize(6);
    }

    /** A lone high surrogate becomes a whole emoji, so the secret is valid text. */
    private static String wellFormed(String s) {
        return s.replace("\uD83D", "\uD83D\uDE00");
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            all.writeBytes(p);
        }
        return all.toByteArray();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
