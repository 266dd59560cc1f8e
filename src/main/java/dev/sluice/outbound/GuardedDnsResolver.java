package dev.sluice.outbound;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.function.Predicate;

import org.apache.hc.client5.http.DnsResolver;

/**
 * Resolves a callback host and keeps only the addresses the policy permits,
 * so the client can only ever connect to a permitted address: a name that
 * resolved to a public address at intake and to a private one at delivery
 * (DNS rebinding) is refused here, before any connection. A name on the
 * allow-list keeps every address but link-local and metadata ones. A
 * workspace's archive is fetched through it too (ADR 0060).
 */
public final class GuardedDnsResolver implements DnsResolver {

    /** A host whose every address is refused. Subclasses UnknownHostException so the client stops before connecting. */
    public static final class RefusedAddress extends UnknownHostException {
        RefusedAddress(String host) {
            super(host + " resolves only to addresses callbacks may not reach");
        }
    }

    /** Name resolution, the system's by default. */
    public interface Lookup {
        InetAddress[] all(String host) throws UnknownHostException;

        /** The system's resolver, answering within five seconds or taking the name as unknown. */
        static Lookup system() {
            return SystemLookup::all;
        }
    }

    private final AddressPolicy policy;
    private final Lookup lookup;

    public GuardedDnsResolver(AddressPolicy policy, Lookup lookup) {
        this.policy = policy;
        this.lookup = lookup;
    }

    @Override
    public InetAddress[] resolve(String host) throws UnknownHostException {
        InetAddress[] all =
                IpLiteral.parse(host).map(a -> new InetAddress[] {a}).orElse(null);
        if (all == null) {
            all = lookup.all(host);
        }
        // A name on the allow-list may lead to private addresses, never to link-local or metadata ones.
        Predicate<InetAddress> rule = policy.allowsHost(host) ? policy::permitsForAllowedHost : policy::permits;
        InetAddress[] permitted = Arrays.stream(all).filter(rule).toArray(InetAddress[]::new);
        if (permitted.length == 0) {
            throw new RefusedAddress(host);
        }
        return permitted;
    }

    @Override
    public String resolveCanonicalHostname(String host) {
        return host;
    }
}
