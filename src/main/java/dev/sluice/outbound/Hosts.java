package dev.sluice.outbound;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;

/**
 * Host names as every check compares them: in lower case, without a final
 * dot, an IPv6 literal in brackets (as {@link URI#getHost} gives it). One
 * spelling for the worker's allow-lists, a tenant's hosts, the hosts MCP may
 * name and the summarizer's, so that no list compares a host another list
 * spells differently.
 */
public final class Hosts {

    private Hosts() {}

    /** {@code host} in the one spelling the checks compare. */
    public static String normal(String host) {
        String h = host.strip().toLowerCase(Locale.ROOT);
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        return h.indexOf(':') >= 0 && !h.startsWith("[") ? "[" + h + "]" : h;
    }

    /** The URI's host as {@link #normal} writes it; empty when it has none. */
    public static String of(URI uri) {
        return uri.getHost() == null ? "" : normal(uri.getHost());
    }

    /** The host of {@code url} as {@link #normal} writes it; empty when it has none or is no URI. */
    public static String of(String url) {
        try {
            return of(new URI(url));
        } catch (URISyntaxException e) {
            return "";
        }
    }

    /**
     * Whether {@code host} is this machine by its spelling alone:
     * {@code localhost}, or an IP literal in 127.0.0.0/8 or {@code ::1}. Any
     * other name counts as beyond loopback, {@code localhost.} (a name a
     * resolver may ask DNS for) included; it is never looked up, since what it
     * resolves to can change after the check.
     */
    public static boolean loopback(String host) {
        String h = host.strip().toLowerCase(Locale.ROOT);
        if (h.equals("localhost")) {
            return true;
        }
        Optional<InetAddress> literal = IpLiteral.parse(h);
        return literal.isPresent() && literal.get().isLoopbackAddress();
    }

    /**
     * The socket address of a host the operator configured (the engine's), its
     * name looked up within {@link SystemLookup#DEADLINE}. No address policy
     * applies: it is the operator's setting, not a tenant's choice.
     */
    public static InetSocketAddress configured(String host, int port) throws UnknownHostException {
        return new InetSocketAddress(SystemLookup.all(host)[0], port);
    }
}
