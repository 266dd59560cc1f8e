package dev.sluice.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The multi-pattern matcher against a plain search for each pattern at every offset. */
class PatternMatcherTest {

    /**
     * Few letters, so patterns overlap each other, share windows and pairs, and
     * occur often; some patterns of one byte and some longer than the widest
     * window.
     */
    @Property(tries = 1000)
    void marksExactlyWhatAPlainSearchFinds(
            @ForAll("patterns") List<byte[]> patterns, @ForAll("texts") byte[] text, @ForAll("edges") int[] edges) {
        int from = Math.min(edges[0], text.length);
        int to = Math.max(from, text.length - edges[1]);
        boolean[] hit = new boolean[to - from];
        boolean found = new PatternMatcher(patterns).mark(text, from, to, hit);

        boolean[] expected = reference(patterns, text, from, to);
        assertThat(hit).isEqualTo(expected);
        assertThat(found).isEqualTo(contains(expected));
    }

    @Test
    void noPatternsMarkNothing() {
        boolean[] hit = new boolean[5];
        assertThat(new PatternMatcher(List.of()).mark(utf8("hello"), 0, 5, hit)).isFalse();
        assertThat(hit).containsOnly(false);
    }

    @Test
    void aPatternAtTheVeryEndOfTheRangeIsFound() {
        byte[] text = utf8("xxxxxxxxxxxxsecret-1");
        boolean[] hit = new boolean[text.length];
        assertThat(new PatternMatcher(List.of(utf8("secret-1"), utf8("another-longer-one")))
                        .mark(text, 0, text.length, hit))
                .isTrue();
        assertThat(hit).startsWith(new boolean[12]).endsWith(true, true, true, true, true, true, true, true);
    }

    private static boolean[] reference(List<byte[]> patterns, byte[] text, int from, int to) {
        boolean[] hit = new boolean[to - from];
        for (byte[] p : patterns) {
            for (int i = from; i + p.length <= to; i++) {
                if (p.length > 0 && Arrays.equals(text, i, i + p.length, p, 0, p.length)) {
                    Arrays.fill(hit, i - from, i - from + p.length, true);
                }
            }
        }
        return hit;
    }

    private static boolean contains(boolean[] marks) {
        for (boolean m : marks) {
            if (m) {
                return true;
            }
        }
        return false;
    }

    @Provide
    Arbitrary<List<byte[]>> patterns() {
        Arbitrary<byte[]> shortOnes = Arbitraries.strings()
                .withChars("abc")
                .ofMinLength(1)
                .ofMaxLength(6)
                .map(PatternMatcherTest::utf8);
        Arbitrary<byte[]> longOnes = Arbitraries.strings()
                .withChars("ab")
                .ofMinLength(60)
                .ofMaxLength(90)
                .map(PatternMatcherTest::utf8);
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(8, shortOnes), net.jqwik.api.Tuple.of(1, longOnes))
                .list()
                .ofMaxSize(6);
    }

    @Provide
    Arbitrary<byte[]> texts() {
        return Arbitraries.oneOf(
                Arbitraries.strings().withChars("abc").ofMaxLength(300).map(PatternMatcherTest::utf8),
                Arbitraries.strings().withChars("ab").ofMaxLength(400).map(PatternMatcherTest::utf8));
    }

    @Provide
    Arbitrary<int[]> edges() {
        return Arbitraries.integers().between(0, 20).array(int[].class).ofSize(2);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
