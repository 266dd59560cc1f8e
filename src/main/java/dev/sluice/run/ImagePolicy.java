package dev.sluice.run;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** The image allow-list: a dispatch of any other image is refused before anything is created. */
public final class ImagePolicy {

    private final List<Pattern> allowed;

    public ImagePolicy(List<String> patterns) {
        this.allowed = patterns.stream()
                .map(String::strip)
                .filter(p -> !p.isEmpty())
                .map(ImagePolicy::glob)
                .toList();
    }

    public boolean allows(String image) {
        return allowed.stream().anyMatch(p -> p.matcher(image).matches());
    }

    private static Pattern glob(String pattern) {
        return Pattern.compile(
                Arrays.stream(pattern.split("\\*", -1)).map(Pattern::quote).collect(Collectors.joining(".*")));
    }
}
