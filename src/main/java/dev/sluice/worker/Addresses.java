package dev.sluice.worker;

import java.net.URI;
import java.util.Optional;

import dev.sluice.outbound.LocalHost;

/**
 * The address a worker advertises to its peers (ADR 0065): an origin and
 * nothing else, so that what a relay appends to it is the whole of the path
 * it asks for, and no user, path or query of a row can change where it goes.
 */
final class Addresses {

    private Addresses() {}

    /** {@code scheme://host:port} of {@code address}; refused when it is anything more or less than an origin. */
    static URI checked(URI address) {
        String scheme = address.getScheme();
        boolean origin = ("http".equals(scheme) || "https".equals(scheme))
                && address.getHost() != null
                && address.getRawUserInfo() == null
                && (address.getRawPath() == null
                        || address.getRawPath().isEmpty()
                        || address.getRawPath().equals("/"))
                && address.getRawQuery() == null
                && address.getRawFragment() == null;
        if (!origin) {
            throw new IllegalArgumentException(
                    "sluice.worker.advertised-url must be http(s)://host:port with no path, query or user: " + address);
        }
        int port = address.getPort() > 0 ? address.getPort() : "https".equals(scheme) ? 443 : 80;
        return URI.create(scheme + "://" + address.getRawAuthority().replaceFirst(":[0-9]+$", "") + ":" + port);
    }

    /**
     * This worker's address: the configured one, else where the API listens; an
     * API on every interface is advertised at this host's address, which the
     * other replicas can reach where loopback would lead them to themselves.
     */
    static URI of(Optional<URI> configured, String httpHost, int httpPort) {
        if (configured.isPresent()) {
            return checked(configured.get());
        }
        String host = httpHost;
        if (host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
            host = LocalHost.address().orElse("127.0.0.1");
        }
        if (host.contains(":") && !host.startsWith("[")) {
            host = "[" + host + "]";
        }
        return checked(URI.create("http://" + host + ":" + httpPort));
    }
}
