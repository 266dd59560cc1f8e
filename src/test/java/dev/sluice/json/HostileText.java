package dev.sluice.json;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/**
 * Text that costs the most and breaks the most when cut: controls, quotes and
 * backslashes (escaped), Latin-1 and symbols (two and three bytes), any
 * surrogate, paired or lone, and characters outside the BMP (four bytes as
 * text, twelve from a byte generator).
 */
final class HostileText {

    private HostileText() {}

    static Arbitrary<String> upTo(int maxLength) {
        return Arbitraries.strings()
                .withCharRange('\u0000', '\u00ff')
                .withCharRange('\u2000', '\u20ff')
                .withCharRange('\uD800', '\uDFFF')
                .withChars('"', '\\')
                .ofMaxLength(maxLength)
                .map(s -> s + "😀".repeat(s.length() % 5));
    }
}
