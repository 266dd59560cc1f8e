package dev.sluice.image;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An image reference as the engine reads it: the registry it lives in (Docker
 * Hub's {@code docker.io} when the first component names none), the
 * repository, and a tag or a digest. The request's validator has already
 * checked the syntax; this only takes it apart.
 *
 * @param domain the registry host (and port) credentials are looked up by
 * @param path   the repository inside the registry ({@code library/} added for Hub's official images)
 * @param tag    the tag; {@code null} when none was given (the engine's {@code latest}) or a digest pins it
 * @param digest {@code algorithm:hex} when the reference pins one, else {@code null}
 */
public record ImageName(String domain, String path, String tag, String digest) {

    /** Docker Hub, as the engine names it in references. */
    public static final String HUB = "docker.io";

    private static final Pattern SHA256 = Pattern.compile("sha256:[0-9a-f]{64}");

    public static ImageName parse(String reference) {
        String rest = reference;
        String digest = null;
        int at = rest.indexOf('@');
        if (at >= 0) {
            digest = rest.substring(at + 1);
            rest = rest.substring(0, at);
        }
        String tag = null;
        int colon = rest.lastIndexOf(':');
        if (colon > rest.lastIndexOf('/')) {
            tag = rest.substring(colon + 1);
            rest = rest.substring(0, colon);
        }
        String domain = HUB;
        int slash = rest.indexOf('/');
        if (slash > 0) {
            String first = rest.substring(0, slash);
            if (first.contains(".") || first.contains(":") || first.equals("localhost")) {
                domain = first.toLowerCase(Locale.ROOT);
                rest = rest.substring(slash + 1);
            }
        }
        if (domain.equals("index.docker.io")) {
            domain = HUB;
        }
        if (domain.equals(HUB) && !rest.contains("/")) {
            rest = "library/" + rest;
        }
        return new ImageName(domain, rest, digest != null ? null : tag, digest);
    }

    /** The repository as the engine writes it in an image's {@code RepoDigests}: Hub's without its domain. */
    public String repository() {
        if (!domain.equals(HUB)) {
            return domain + "/" + path;
        }
        return path.startsWith("library/") ? path.substring("library/".length()) : path;
    }

    /** What the engine is asked to pull: the digest, or the tag ({@code latest} when none), never "every tag". */
    String pullTag() {
        return digest != null ? digest : tag != null ? tag : "latest";
    }

    /** The whole reference, normalized: one name for every spelling of the same image. */
    public String normalized() {
        return domain + "/" + path + (digest != null ? "@" + digest : ":" + pullTag());
    }

    /**
     * The content digest this repository has among an image's {@code RepoDigests}
     * ({@code repository@sha256:...}); empty when none is of this repository, as
     * for an image loaded by hand, which has none at all.
     */
    public Optional<String> digestIn(Iterable<String> repoDigests) {
        String prefix = repository() + "@";
        for (String repoDigest : repoDigests) {
            if (repoDigest.startsWith(prefix)) {
                String digest = repoDigest.substring(prefix.length());
                if (SHA256.matcher(digest).matches()) {
                    return Optional.of(digest);
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return normalized();
    }
}
