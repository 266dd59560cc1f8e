package dev.sluice.image;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import dev.sluice.container.sandbox.ImagePatterns;
import dev.sluice.outbound.AddressPolicy;
import dev.sluice.outbound.GuardedDnsResolver;
import dev.sluice.outbound.IpLiteral;

/**
 * The image allow-list: a dispatch of any other image is refused before
 * anything is created. It applies to the reference as asked (and, pinned by
 * digest, to the name the digest is of) and to where the image resolved: the
 * repositories whose content digests the engine holds for it (ADR 0059).
 *
 * <p>A registry named by an address ({@code 10.0.0.5/x}, {@code [::1]:5000/x},
 * {@code 127.1:5000/x}) or as {@code localhost} is the worker's own network,
 * not the public one a pattern such as {@code *} means: only a pattern that
 * names that registry literally (no {@code *} before its first {@code /}, host
 * and port as the image writes them) allows its images (ADR 0075). A registry
 * named otherwise is looked up before a pull ({@link #mayPullFrom}), with the
 * same rule for a name that leads to such an address.
 */
public final class ImagePolicy {

    /** Addresses a registry no pattern names may not have: the callbacks' SSRF classes, with nothing allowed. */
    private static final AddressPolicy PUBLIC_ONLY = new AddressPolicy(List.of());

    /** The host the engine asks for Docker Hub's images. */
    private static final String HUB_REGISTRY = "registry-1.docker.io";

    private final ImagePatterns allowed;
    /** Per registry named literally by some pattern (lower case), the patterns of what follows its first {@code /}. */
    private final Map<String, ImagePatterns> named;

    private final GuardedDnsResolver.Lookup lookup;

    /** A policy that never looks a registry's name up: {@link #mayPullFrom} judges names by their spelling alone. */
    public ImagePolicy(List<String> patterns) {
        this(patterns, host -> {
            throw new UnknownHostException(host);
        });
    }

    /** @param lookup how a registry's name is resolved before a pull: the system's resolver in the worker */
    public ImagePolicy(List<String> patterns, GuardedDnsResolver.Lookup lookup) {
        this.allowed = new ImagePatterns(patterns);
        this.lookup = lookup;
        Map<String, List<String>> rests = new HashMap<>();
        for (String raw : patterns) {
            String pattern = raw.strip();
            int slash = pattern.indexOf('/');
            if (slash > 0 && pattern.lastIndexOf('*', slash) < 0) {
                rests.computeIfAbsent(pattern.substring(0, slash).toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                        .add(pattern.substring(slash + 1));
            }
        }
        Map<String, ImagePatterns> byRegistry = new HashMap<>();
        rests.forEach((registry, list) -> byRegistry.put(registry, new ImagePatterns(list)));
        this.named = Map.copyOf(byRegistry);
    }

    /**
     * Why {@code image} may not be dispatched as asked, in a sentence; empty
     * when it may. {@code name:tag@digest} runs by the digest, so
     * {@code name@digest} must be allowed too.
     */
    public Optional<String> refusal(String image) {
        int at = image.indexOf('@');
        int colon = at < 0 ? -1 : image.lastIndexOf(':', at);
        boolean taggedToo = colon > image.lastIndexOf('/', at);
        if (matches(image) && (!taggedToo || matches(image.substring(0, colon) + image.substring(at)))) {
            return Optional.empty();
        }
        if (local(ImageName.parse(image).domain())) {
            return Optional.of("image " + image + " names its registry by an address or as localhost, and only a "
                    + "pattern of sluice.images.allowed that names that registry (host and port, no *) allows it");
        }
        return Optional.of("image " + image + " is not on this worker's allow-list");
    }

    /**
     * Whether an image the engine holds under these {@code repository@digest}
     * names may run: by one of them at least. An image loaded by hand has none,
     * and only its reference as asked was checked.
     */
    public boolean allowsResolved(List<String> repoDigests) {
        return repoDigests.isEmpty() || repoDigests.stream().anyMatch(this::matches);
    }

    /**
     * Whether a pull may ask the registry {@code domain} ({@code host[:port]},
     * as {@link ImageName#domain()} gives it): yes when a pattern names it
     * literally; otherwise only when none of the addresses its name resolves to
     * now is loopback, private, link-local or of another class the callbacks'
     * SSRF rules refuse. Best effort: the engine resolves the name again when it
     * pulls, and may get another answer. A name that does not resolve here is
     * left to the engine, whose pull then fails as it would have.
     */
    public boolean mayPullFrom(String domain) {
        String registry = domain.toLowerCase(Locale.ROOT);
        if (named.containsKey(registry)) {
            return true;
        }
        if (local(registry)) {
            return false;
        }
        try {
            for (InetAddress address : lookup.all(registry.equals(ImageName.HUB) ? HUB_REGISTRY : host(registry))) {
                if (!PUBLIC_ONLY.permits(address)) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException e) {
            return true;
        }
    }

    private boolean matches(String reference) {
        String registry = ImageName.parse(reference).domain();
        if (!local(registry)) {
            return allowed.matches(reference);
        }
        // As the reference writes it: a registry part names one only when it is the first component.
        ImagePatterns rest = named.get(registry);
        int slash = reference.indexOf('/');
        return rest != null && rest.matches(reference.substring(slash + 1));
    }

    /** A registry named by an address, in any spelling a resolver reads as one, or as localhost. */
    static boolean local(String domain) {
        String host = host(domain);
        return host.equals("localhost") || host.endsWith(".localhost") || IpLiteral.addressLike(host);
    }

    /** The host of {@code host[:port]}, {@code [v6]:port} or {@code [v6]}, in lower case. */
    private static String host(String domain) {
        String d = domain.toLowerCase(Locale.ROOT);
        if (d.startsWith("[")) {
            int close = d.indexOf(']');
            return close < 0 ? d : d.substring(0, close + 1);
        }
        int colon = d.lastIndexOf(':');
        return colon < 0 ? d : d.substring(0, colon);
    }
}
