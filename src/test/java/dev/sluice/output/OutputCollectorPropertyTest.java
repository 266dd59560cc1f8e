package dev.sluice.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The collector's promises checked on random inputs against a plain reference:
 * the JDK's own UTF-8 decoder over the whole input, held in memory. The JDK
 * replaces an encoded surrogate ({@code ED A0..BF ..}) with one U+FFFD where the
 * Unicode standard's practice, which we follow, gives one per byte; the random
 * noise therefore has no {@code ED}, and {@link Utf8Test} covers that case.
 */
class OutputCollectorPropertyTest {

    private static final String LOG = "/v1/dispatches/p/logs/stderr";
    private static final String NONCE = "pr0perty-n0n";

    @Property(tries = 400)
    void resultIsBoundedHonestAndMadeOfTheStreamsEnds(
            @ForAll("streams") byte[] input,
            @ForAll @IntRange(min = 1024, max = 4096) int cap,
            @ForAll("chunkSizes") List<Integer> chunks) {
        CapturedOutput out = feed(input, cap, chunks);
        String whole = reference(input);

        assertThat(out.originalBytes()).isEqualTo(input.length);
        assertThat(out.digest()).isEqualTo(StreamDigesterTest.reference(input));
        assertThat(utf8(out.text().toString())).isLessThanOrEqualTo(cap);
        assertThat(isWellFormed(out.text().toString())).isTrue();

        boolean fits = utf8(whole) <= cap;
        assertThat(out.truncated()).isEqualTo(!fits);
        if (fits) {
            assertThat(out.text().toString()).isEqualTo(whole);
            return;
        }
        Truncated t = Truncated.parse(out.text().toString());
        assertThat(whole).startsWith(t.head()).endsWith(t.tail());
        assertThat(t.original()).isEqualTo(input.length);
        assertThat(t.dropped()).isEqualTo(out.overflow().droppedBytes()).isBetween(1L, (long) input.length);
        assertThat(out.overflow().originalBytes()).isEqualTo(input.length);
        assertThat(out.overflow().keptBytes()).isEqualTo(utf8(out.text().toString()));
        assertThat(t.stream()).isEqualTo("stderr");
        assertThat(t.fullLog()).isEqualTo(LOG);
        assertThat(t.nonce()).isEqualTo(out.overflow().nonce()).isEqualTo(NONCE);
    }

    @Property(tries = 200)
    void chunkingNeverChangesTheResult(@ForAll("streams") byte[] input, @ForAll("chunkSizes") List<Integer> chunks) {
        assertThat(feed(input, 1024, chunks)).isEqualTo(feed(input, 1024, List.of(Integer.MAX_VALUE)));
    }

    @Property(tries = 200)
    void validInputLosesExactlyTheDroppedBytes(
            @ForAll("validText") String text, @ForAll("chunkSizes") List<Integer> chunks) {
        byte[] input = text.getBytes(StandardCharsets.UTF_8);
        CapturedOutput out = feed(input, 1024, chunks);
        if (out.truncated()) {
            Truncated t = Truncated.parse(out.text().toString());
            assertThat(utf8(t.head()) + t.dropped() + utf8(t.tail())).isEqualTo(input.length);
        }
    }

    /**
     * ADR 0014: the string shows the stream's first and last bytes, decoded;
     * {@code droppedBytes} is exactly the stream's bytes between them; and
     * {@code keptBytes} is the bytes shown, plus the marker, plus two bytes for
     * each byte that became a three-byte U+FFFD (so never their sum with
     * {@code droppedBytes}).
     */
    @Property(tries = 300)
    void theCountsKeepTheirIdentityWhateverTheBytes(
            @ForAll("streams") byte[] input,
            @ForAll @IntRange(min = 1024, max = 4096) int cap,
            @ForAll("chunkSizes") List<Integer> chunks) {
        CapturedOutput out = feed(input, cap, chunks);
        if (!out.truncated()) {
            return;
        }
        Truncated t = Truncated.parse(out.text().toString());
        int head = rawLength(input, t.head(), true);
        int tail = rawLength(input, t.tail(), false);
        Overflow o = out.overflow();
        long shown = o.originalBytes() - o.droppedBytes();
        assertThat(shown).isEqualTo(head + tail);
        long marker = utf8(out.text().toString()) - utf8(t.head()) - utf8(t.tail());
        long replacementBytes = (utf8(t.head()) - head) + (utf8(t.tail()) - tail);
        assertThat(o.keptBytes()).isEqualTo(shown + marker + replacementBytes).isLessThanOrEqualTo(cap);
    }

    /** How many of the stream's first (or last) bytes decode to {@code text}; fails when none do. */
    private static int rawLength(byte[] input, String text, boolean fromStart) {
        // Replacements only ever lengthen: the raw bytes are at most the text's UTF-8 length, at least a third of it.
        for (int n = Math.min(utf8(text), input.length); n >= utf8(text) / 3; n--) {
            int from = fromStart ? 0 : input.length - n;
            if (new String(input, from, n, StandardCharsets.UTF_8).equals(text)) {
                return n;
            }
        }
        throw new AssertionError("no run of the stream's " + (fromStart ? "first" : "last") + " bytes decodes to it");
    }

    private static CapturedOutput feed(byte[] input, int cap, List<Integer> chunks) {
        OutputCollector c = new OutputCollector("stderr", cap, LOG, NONCE, SecretMasker.NONE);
        Chunks.feed(input, chunks, c::write);
        return c.finish();
    }

    @Provide
    Arbitrary<byte[]> streams() {
        // Mostly text with newlines and multibyte characters, some raw noise, sizes
        // on both sides of the caps.
        Arbitrary<byte[]> text = validText().map(s -> s.getBytes(StandardCharsets.UTF_8));
        Arbitrary<byte[]> noise = Arbitraries.bytes()
                .filter(b -> b != (byte) 0xED)
                .array(byte[].class)
                .ofMaxSize(6000);
        Arbitrary<byte[]> mixed = Combinators.combine(text, noise).as(OutputCollectorPropertyTest::interleave);
        return Arbitraries.oneOf(text, noise, mixed);
    }

    @Provide
    Arbitrary<String> validText() {
        Arbitrary<String> pieces =
                Arbitraries.of("a", "line\n", "\r\n", "\u00e9", "\u20ac", "\uD83D\uDE00", "\u0000", " ", "{\"k\":1}\n");
        return pieces.list().ofMaxSize(3000).map(l -> String.join("", l));
    }

    @Provide
    Arbitrary<List<Integer>> chunkSizes() {
        return Chunks.sizes();
    }

    private static byte[] interleave(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        int split = a.length / 2;
        System.arraycopy(a, 0, out, 0, split);
        System.arraycopy(b, 0, out, split, b.length);
        System.arraycopy(a, split, out, split + b.length, a.length - split);
        return out;
    }

    private static String reference(byte[] input) {
        return new String(input, StandardCharsets.UTF_8);
    }

    private static boolean isWellFormed(String s) {
        CharsetDecoder strict = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            strict.decode(ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8)));
            return s.codePoints().noneMatch(cp -> cp >= 0xD800 && cp <= 0xDFFF);
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    private static int utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
