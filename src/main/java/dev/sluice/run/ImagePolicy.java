package dev.sluice.run;

import java.util.List;

import dev.sluice.container.ImagePatterns;

/**
 * The image allow-list: a dispatch of any other image is refused before
 * anything is created. It applies to the reference as asked (and, pinned by
 * digest, to the name the digest is of) and to where the image resolved: the
 * repositories whose content digests the engine holds for it (ADR 0059).
 */
public final class ImagePolicy {

    private final ImagePatterns allowed;

    public ImagePolicy(List<String> patterns) {
        this.allowed = new ImagePatterns(patterns);
    }

    /** Whether {@code image} may be dispatched as asked; {@code name:tag@digest} runs by the digest, so {@code name@digest} must be allowed too. */
    public boolean allows(String image) {
        if (!allowed.matches(image)) {
            return false;
        }
        int at = image.indexOf('@');
        int colon = at < 0 ? -1 : image.lastIndexOf(':', at);
        boolean taggedToo = colon > image.lastIndexOf('/', at);
        return !taggedToo || allowed.matches(image.substring(0, colon) + image.substring(at));
    }

    /**
     * Whether an image the engine holds under these {@code repository@digest}
     * names may run: by one of them at least. An image loaded by hand has none,
     * and only its reference as asked was checked.
     */
    public boolean allowsResolved(List<String> repoDigests) {
        return repoDigests.isEmpty() || repoDigests.stream().anyMatch(allowed::matches);
    }
}
