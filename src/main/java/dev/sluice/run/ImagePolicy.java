package dev.sluice.run;

import java.util.List;

import dev.sluice.container.ImagePatterns;

/** The image allow-list: a dispatch of any other image is refused before anything is created. */
public final class ImagePolicy {

    private final ImagePatterns allowed;

    public ImagePolicy(List<String> patterns) {
        this.allowed = new ImagePatterns(patterns);
    }

    public boolean allows(String image) {
        return allowed.matches(image);
    }
}
