package dev.sluice.outbound;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The intake check on a dispatch's callback URL, before anything is stored.
 * It refuses what is never a legitimate receiver or is spelled to slip past a
 * check: other schemes, user info, hosts the URI parser cannot name, numeric
 * hosts in other than canonical form ({@code 127.1}, {@code 2130706433},
 * {@code 0177.0.0.1}, {@code 0x7f.0.0.1}, {@code [::ffff:127.0.0.1]}),
 * forbidden IP literals, localhost names and the names of cloud metadata
 * services (refused by name, since where the worker's DNS does not answer for
 * them the connect-time check never sees their address; never a receiver, so
 * not even the allow-list lets them through). Odd spellings are refused even
 * when the address they spell is on the allow-list. Other names are not
 * resolved here: the addresses they resolve to are checked when connecting
 * ({@link GuardedDnsResolver}). A tenant with
 * {@code sluice.tenants.<name>.callback-allowed-hosts} may name only those
 * hosts, after every check above (ADR 0074).
 */
public final class CallbackUrlPolicy {

    private static final int MAX_LENGTH = 2048;
    private static final Pattern NUMERIC_LABEL = Pattern.compile("0x[0-9a-f]*|[0-9]+");

    /** Cloud instance metadata services by name; their subdomains too. */
    private static final Set<String> METADATA_HOSTS = Set.of(
            "metadata", // Google Cloud's short name
            "metadata.google.internal",
            "metadata.goog",
            "metadata.azure.com",
            "instance-data", // AWS
            "instance-data.ec2.internal",
            "metadata.tencentyun.com",
            "metadata.platformequinix.com",
            "metadata.packet.net");

    private final AddressPolicy addresses;
    private final Map<String, TenantHosts> tenants;

    public CallbackUrlPolicy(AddressPolicy addresses) {
        this(addresses, Map.of());
    }

    /**
     * With the hosts each tenant may name; an entry the worker's rules would
     * refuse stops the worker at start.
     *
     * @param tenantHosts each tenant's {@code callback-allowed-hosts}, by a name already checked to be a tenant's
     */
    public CallbackUrlPolicy(AddressPolicy addresses, Map<String, List<String>> tenantHosts) {
        this.addresses = addresses;
        Map<String, TenantHosts> hosts = new HashMap<>();
        tenantHosts.forEach((tenant, entries) -> hosts.put(tenant, TenantHosts.of(tenant, entries, this)));
        this.tenants = Map.copyOf(hosts);
    }

    /** Why {@code tenant} may not name this URL, or empty when it may: the worker's rules, then the tenant's hosts. */
    public Optional<String> problem(String tenant, String url) {
        Optional<String> problem = problem(url);
        TenantHosts hosts = tenants.get(tenant);
        if (problem.isPresent() || hosts == null || hosts.contains(Hosts.of(URI.create(url)))) {
            return problem;
        }
        return Optional.of("names a host that is not on " + hosts.setting() + ", the hosts this tenant's "
                + "callbacks may go to");
    }

    /** Why the URL is refused by the worker's rules, or empty when it may be used. */
    public Optional<String> problem(String url) {
        if (url.length() > MAX_LENGTH) {
            return Optional.of("is longer than " + MAX_LENGTH + " characters");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return Optional.of("is not a valid URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return Optional.of("must be an http or https URL");
        }
        if (uri.getRawUserInfo() != null
                || (uri.getRawAuthority() != null && uri.getRawAuthority().contains("@"))) {
            return Optional.of("must not carry user information");
        }
        String host = Hosts.of(uri);
        if (host.isEmpty()) {
            return Optional.of("has no host the worker can read");
        }
        if (isMetadataHost(host)) {
            return Optional.of("names a cloud metadata service");
        }
        if (addresses.allowsHost(host)) {
            return Optional.empty();
        }
        Optional<InetAddress> literal = IpLiteral.parse(host);
        if (literal.isPresent()
                && host.contains(":")
                && (literal.get() instanceof Inet4Address
                        || AddressPolicy.embeddedIpv4(literal.get()).isPresent())) {
            // ::ffff:127.0.0.1 and kin: an IPv4 address has one canonical spelling, and this is not it.
            return Optional.of("spells an IPv4 address in IPv6 form");
        }
        if (literal.isPresent() && AddressPolicy.never(literal.get())) {
            return Optional.of("points at a link-local or cloud metadata address, which no setting allows");
        }
        if (literal.isPresent()) {
            return addresses.permits(literal.get())
                    ? Optional.empty()
                    : Optional.of(
                            "points at an address callbacks may not reach (loopback, private, link-local or reserved)");
        }
        if (looksNumeric(host)) {
            return Optional.of("spells an IP address in a form that is not canonical");
        }
        if (host.equals("localhost") || host.endsWith(".localhost")) {
            return Optional.of("points at this machine");
        }
        return Optional.empty();
    }

    private static boolean isMetadataHost(String host) {
        for (String name = host; ; name = name.substring(name.indexOf('.') + 1)) {
            if (METADATA_HOSTS.contains(name)) {
                return true;
            }
            if (name.indexOf('.') < 0) {
                return false;
            }
        }
    }

    /** Every label a number (decimal, octal or hex), as inet_aton would read it. */
    private static boolean looksNumeric(String host) {
        for (String label : host.split("\\.", -1)) {
            if (!NUMERIC_LABEL.matcher(label).matches()) {
                return false;
            }
        }
        return true;
    }
}
