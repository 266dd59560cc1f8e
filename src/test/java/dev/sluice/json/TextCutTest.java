package dev.sluice.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.function.IntUnaryOperator;

import org.junit.jupiter.api.Test;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** Cuts never split a character, stay within their room, and keep as much as the room allows. */
class TextCutTest {

    private static final String MARK = "…[cut]";

    @Property(tries = 1000)
    void aPrefixIsTheLongestStartWithinTheRoomOnACharacterBoundary(
            @ForAll("texts") String text, @ForAll @IntRange(max = 2000) int room, @ForAll boolean escaped) {
        IntUnaryOperator size = escaped ? JsonSize::escaped : JsonSize::utf8;

        int end = TextCut.prefixEnd(text, room, size);

        assertThat(onBoundary(text, end)).isTrue();
        assertThat(measure(text.substring(0, end), size)).isLessThanOrEqualTo(room);
        if (end < text.length()) {
            int next = text.offsetByCodePoints(end, 1);
            assertThat(measure(text.substring(0, next), size)).isGreaterThan(room);
        }
    }

    @Property(tries = 1000)
    void aSuffixIsTheLongestEndWithinTheRoomAndNeverCrossesTheLimit(
            @ForAll("texts") String text, @ForAll @IntRange(max = 2000) int room, @ForAll @IntRange(max = 100) int at) {
        int notBefore = TextCut.prefixEnd(text, at, JsonSize::escaped);

        int start = TextCut.suffixStart(text, room, notBefore, JsonSize::escaped);

        assertThat(start).isBetween(notBefore, text.length());
        assertThat(onBoundary(text, start)).isTrue();
        assertThat(JsonSize.escaped(text.substring(start))).isLessThanOrEqualTo(room);
        if (start > notBefore) {
            int previous = text.offsetByCodePoints(start, -1);
            assertThat(JsonSize.escaped(text.substring(previous))).isGreaterThan(room);
        }
    }

    @Property(tries = 1000)
    void toBytesIsTheWholeTextOrAWellFormedStartWithTheMarkWithinTheBound(
            @ForAll("texts") String text, @ForAll @IntRange(min = 8, max = 600) int maxBytes) {
        String cut = TextCut.toBytes(text, maxBytes, MARK);
        String clean = TextCut.wellFormed(text);

        assertThat(cut.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(maxBytes);
        assertThat(TextCut.wellFormed(cut)).isEqualTo(cut);
        if (!cut.equals(clean)) {
            assertThat(cut).endsWith(MARK);
            assertThat(clean).startsWith(cut.substring(0, cut.length() - MARK.length()));
        }
    }

    @Property(tries = 500)
    void toCharsKeepsAtMostTheCharactersAskedForMarkIncluded(
            @ForAll("texts") String text, @ForAll @IntRange(min = 1, max = 300) int maxChars) {
        String cut = TextCut.toChars(text, maxChars, "…");

        assertThat(cut.codePointCount(0, cut.length())).isLessThanOrEqualTo(maxChars);
        String clean = TextCut.wellFormed(text);
        if (!cut.equals(clean)) {
            assertThat(clean).startsWith(cut.substring(0, cut.length() - 1));
        }
    }

    @Property(tries = 1000)
    void aPrefixOfUtf8TextEndsOnACharacterAndFitsOnceDecodedAndEscaped(
            @ForAll("texts") String text, @ForAll @IntRange(max = 2000) int room) {
        String clean = TextCut.wellFormed(text);
        byte[] bytes = clean.getBytes(StandardCharsets.UTF_8);

        int n = TextCut.utf8Prefix(bytes, room);

        String shown = new String(bytes, 0, n, StandardCharsets.UTF_8);
        String rest = new String(bytes, n, bytes.length - n, StandardCharsets.UTF_8);
        assertThat(shown + rest).isEqualTo(clean);
        assertThat(JsonSize.escaped(shown)).isLessThanOrEqualTo(room);
    }

    /** Invalid bytes are shown as U+FFFD: an estimate then, which never shows less for more room. */
    @Property(tries = 1000)
    void aPrefixOfAnyBytesGrowsWithItsRoom(
            @ForAll byte[] bytes, @ForAll @IntRange(max = 2000) int room, @ForAll @IntRange(max = 50) int more) {
        int n = TextCut.utf8Prefix(bytes, room);

        assertThat(n).isBetween(0, bytes.length);
        assertThat(TextCut.utf8Prefix(bytes, room + more)).isGreaterThanOrEqualTo(n);
    }

    @Test
    void aSequenceCutOffByTheEndIsLeftForTheNextReadUnlessItIsAllThereIs() {
        byte[] euro = "€".getBytes(StandardCharsets.UTF_8);
        byte[] cutEuro = {'a', euro[0], euro[1]};

        assertThat(TextCut.utf8Prefix(cutEuro, 100)).isEqualTo(1);
        assertThat(TextCut.utf8Prefix(new byte[] {euro[0], euro[1]}, 100)).isEqualTo(2);
    }

    @Test
    void loneSurrogatesBecomeReplacementCharacters() {
        assertThat(TextCut.wellFormed("a\uD800b\uDC00😀")).isEqualTo("a\uFFFDb\uFFFD😀");
    }

    private static boolean onBoundary(String text, int index) {
        return index == 0
                || index == text.length()
                || !(Character.isHighSurrogate(text.charAt(index - 1)) && Character.isLowSurrogate(text.charAt(index)));
    }

    private static int measure(String text, IntUnaryOperator size) {
        return text.codePoints().map(size).sum();
    }

    @Provide
    Arbitrary<String> texts() {
        return HostileText.upTo(600);
    }
}
