package dev.sluice.container.sandbox;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Image references matched against patterns in which {@code *} matches any
 * run of characters and everything else matches itself: the one matching of
 * {@code sluice.images.allowed} and {@code sluice.container.root-allowed-images}.
 * Blank patterns are ignored, and surrounding spaces dropped.
 */
public final class ImagePatterns {

    private final List<Pattern> patterns;

    public ImagePatterns(List<String> patterns) {
        this.patterns = patterns.stream()
                .map(String::strip)
                .filter(p -> !p.isEmpty())
                .map(ImagePatterns::glob)
                .toList();
    }

    /** Whether {@code image} matches any of the patterns. */
    public boolean matches(String image) {
        return patterns.stream().anyMatch(p -> p.matcher(image).matches());
    }

    private static Pattern glob(String pattern) {
        return Pattern.compile(
                Arrays.stream(pattern.split("\\*", -1)).map(Pattern::quote).collect(Collectors.joining(".*")));
    }
}
