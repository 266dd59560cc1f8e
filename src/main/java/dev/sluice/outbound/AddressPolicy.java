package dev.sluice.outbound;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which addresses a callback may connect to (docs/api.md, section 8.8): not
 * loopback, link-local (cloud metadata lives there), private, CGNAT,
 * unspecified, broadcast, multicast, benchmark, documentation or reserved
 * ranges, nor NAT64, Teredo, the 6to4 relay, IPv4-mapped addresses or any IPv6
 * form that embeds a forbidden IPv4 address, unless a deployment allows a
 * host or CIDR explicitly. Link-local and cloud metadata addresses stay
 * refused whatever the allow-list says (ADR 0056): an allowed entry means
 * "private addresses allowed", never "no checks". It is applied to the
 * addresses the client actually connects to, after resolution.
 */
public final class AddressPolicy {

    private static final List<Cidr> FORBIDDEN = List.of(
            Cidr.parse("0.0.0.0/8"), // "this network", unspecified
            Cidr.parse("10.0.0.0/8"), // private
            Cidr.parse("100.64.0.0/10"), // CGNAT (and some clouds' metadata)
            Cidr.parse("127.0.0.0/8"), // loopback
            Cidr.parse("169.254.0.0/16"), // link-local, cloud metadata
            Cidr.parse("172.16.0.0/12"), // private
            Cidr.parse("192.0.0.0/24"), // IETF protocol assignments
            Cidr.parse("192.0.2.0/24"), // documentation
            Cidr.parse("192.88.99.0/24"), // 6to4 relay anycast: a relay anywhere decides where it leads
            Cidr.parse("192.168.0.0/16"), // private
            Cidr.parse("198.18.0.0/15"), // benchmarking
            Cidr.parse("198.51.100.0/24"), // documentation
            Cidr.parse("203.0.113.0/24"), // documentation
            Cidr.parse("224.0.0.0/4"), // multicast
            Cidr.parse("240.0.0.0/4"), // reserved, and 255.255.255.255 broadcast
            Cidr.parse("::/128"), // unspecified
            Cidr.parse("::1/128"), // loopback
            Cidr.parse("64:ff9b::/96"), // NAT64
            Cidr.parse("64:ff9b:1::/48"), // local-use NAT64
            Cidr.parse("100::/64"), // discard-only
            Cidr.ipv4Mapped(), // ::ffff:0:0/96, when an address keeps its IPv6 form (Java reads most as IPv4)
            Cidr.parse("2001::/32"), // Teredo: a tunnel through a relay to an IPv4 address it hides
            Cidr.parse("2001:db8::/32"), // documentation
            Cidr.parse("fc00::/7"), // unique local (private)
            Cidr.parse("fe80::/10"), // link-local
            Cidr.parse("fec0::/10"), // site-local (deprecated)
            Cidr.parse("ff00::/8")); // multicast

    /**
     * Never reached, whatever the allow-list says: no receiver lives at a
     * link-local address, and cloud metadata services (credentials) do, or at
     * these few addresses of their own.
     */
    private static final List<Cidr> NEVER = List.of(
            Cidr.parse("169.254.0.0/16"), // link-local: AWS, GCP, Azure, OCI, Tencent metadata, ECS task roles
            Cidr.parse("fe80::/10"), // link-local
            Cidr.parse("fd00:ec2::254/128"), // AWS metadata over IPv6
            Cidr.parse("fd20:ce::254/128"), // Google Cloud metadata over IPv6
            Cidr.parse("100.100.100.200/32"), // Alibaba Cloud metadata
            Cidr.parse("168.63.129.16/32"), // Azure WireServer
            Cidr.parse("192.0.0.192/32")); // Oracle Cloud Classic metadata

    private static final Cidr NAT64 = Cidr.parse("64:ff9b::/96");

    private final List<String> allowedHosts;
    private final List<Cidr> allowedRanges;

    public AddressPolicy(List<String> allowed) {
        List<String> hosts = new ArrayList<>();
        List<Cidr> ranges = new ArrayList<>();
        for (String entry : allowed) {
            String e = entry.strip().toLowerCase(Locale.ROOT);
            if (e.isEmpty()) {
                continue;
            }
            Optional<Cidr> range = Cidr.tryParse(e);
            if (range.isPresent()) {
                ranges.add(range.get());
            } else {
                hosts.add(Hosts.normal(e));
            }
        }
        this.allowedHosts = List.copyOf(hosts);
        this.allowedRanges = List.copyOf(ranges);
    }

    /** Whether a host name is on the allow-list: all its addresses may be used. */
    public boolean allowsHost(String host) {
        return allowedHosts.contains(Hosts.normal(host));
    }

    /** Whether the client may connect to this address, reached by a literal or a name not on the allow-list. */
    public boolean permits(InetAddress address) {
        if (never(address)) {
            return false;
        }
        if (allowedRanges.stream().anyMatch(r -> r.contains(address))) {
            return true;
        }
        return !forbidden(address);
    }

    /** Whether the client may connect to this address of a name on the allow-list: any but link-local or metadata. */
    public boolean permitsForAllowedHost(InetAddress address) {
        return !never(address);
    }

    static boolean forbidden(InetAddress address) {
        return in(FORBIDDEN, address);
    }

    /** Link-local or a cloud metadata address, in any IPv6 form that embeds one too. */
    public static boolean never(InetAddress address) {
        return in(NEVER, address);
    }

    private static boolean in(List<Cidr> ranges, InetAddress address) {
        if (ranges.stream().anyMatch(r -> r.contains(address))) {
            return true;
        }
        return embeddedIpv4(address).map(v4 -> in(ranges, v4)).orElse(false);
    }

    /**
     * The IPv4 address an IPv6 one carries, where it is meant to reach it:
     * IPv4-mapped {@code ::ffff:a.b.c.d}, IPv4-compatible {@code ::a.b.c.d},
     * NAT64 {@code 64:ff9b::a.b.c.d} (a local translator may reach a metadata
     * address through it), and 6to4 {@code 2002:AABB:CCDD::}.
     */
    public static Optional<InetAddress> embeddedIpv4(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return Optional.empty();
        }
        byte[] b = address.getAddress();
        boolean firstTenZero = true;
        for (int i = 0; i < 10; i++) {
            firstTenZero &= b[i] == 0;
        }
        byte[] v4 = null;
        boolean nat64 = NAT64.contains(address);
        if (nat64 || firstTenZero && ((b[10] == (byte) 0xff && b[11] == (byte) 0xff) || (b[10] == 0 && b[11] == 0))) {
            v4 = new byte[] {b[12], b[13], b[14], b[15]};
        } else if (b[0] == 0x20 && b[1] == 0x02) {
            v4 = new byte[] {b[2], b[3], b[4], b[5]};
        }
        if (v4 == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByAddress(v4));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    /** An address range. */
    record Cidr(byte[] network, int prefix) {

        /**
         * {@code ::ffff:0:0/96}, built from bytes: its text parses as an IPv4
         * address, which has no 96-bit prefix.
         */
        static Cidr ipv4Mapped() {
            byte[] network = new byte[16];
            network[10] = (byte) 0xff;
            network[11] = (byte) 0xff;
            return new Cidr(network, 96);
        }

        static Cidr parse(String text) {
            return tryParse(text).orElseThrow(() -> new IllegalArgumentException("not a CIDR: " + text));
        }

        /** A CIDR, or a single literal IP address; empty for anything else (a host name). */
        static Optional<Cidr> tryParse(String text) {
            String[] parts = text.split("/", 2);
            Optional<InetAddress> address = IpLiteral.parse(parts[0]);
            if (address.isEmpty()) {
                return Optional.empty();
            }
            byte[] bytes = address.get().getAddress();
            int prefix = bytes.length * 8;
            if (parts.length == 2) {
                try {
                    prefix = Integer.parseInt(parts[1]);
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
                if (prefix < 0 || prefix > bytes.length * 8) {
                    return Optional.empty();
                }
            }
            return Optional.of(new Cidr(bytes, prefix));
        }

        boolean contains(InetAddress address) {
            byte[] a = address.getAddress();
            if (a.length != network.length) {
                return false;
            }
            int full = prefix / 8;
            for (int i = 0; i < full; i++) {
                if (a[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = 0xFF << (8 - rest) & 0xFF;
            return (a[full] & mask) == (network[full] & mask);
        }
    }
}
