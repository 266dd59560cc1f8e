package dev.sluice.outbound;

import java.net.InetAddress;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The hosts one tenant's callback URLs may name
 * ({@code sluice.tenants.<name>.callback-allowed-hosts}, ADR 0074): names,
 * compared in lower case without a final dot, and IP addresses, compared as
 * addresses whatever their canonical spelling. Within the worker's rules: an
 * entry the worker's intake check would refuse as a callback host (a private
 * or loopback address, {@code localhost}, a metadata name, an odd numeric
 * spelling) stops the worker at start, since a tenant's list narrows what the
 * worker allows and never widens it. Ranges are the worker's concern
 * ({@code sluice.callback.allowed-hosts}); a tenant's entry is one host.
 */
final class TenantHosts {

    private final String setting;
    private final Set<String> names;
    private final Set<InetAddress> addresses;

    private TenantHosts(String setting, Set<String> names, Set<InetAddress> addresses) {
        this.setting = setting;
        this.names = Set.copyOf(names);
        this.addresses = Set.copyOf(addresses);
    }

    static TenantHosts of(String tenant, List<String> entries, CallbackUrlPolicy worker) {
        String setting = "sluice.tenants." + tenant + ".callback-allowed-hosts";
        Set<String> names = new HashSet<>();
        Set<InetAddress> addresses = new HashSet<>();
        for (int i = 0; i < entries.size(); i++) {
            String entry = entries.get(i).strip().toLowerCase(Locale.ROOT);
            if (entry.isEmpty()) {
                continue;
            }
            String where = setting + ", entry " + (i + 1) + " (" + entry + ")";
            if (entry.contains("/")) {
                throw new IllegalArgumentException(where + ": a tenant's entry is one host name or IP address;"
                        + " ranges belong in sluice.callback.allowed-hosts");
            }
            Optional<InetAddress> literal = IpLiteral.parse(entry);
            if (literal.isEmpty() && entry.contains(":")) {
                throw new IllegalArgumentException(where + ": an entry is a host, without a port");
            }
            String host = Hosts.normal(entry);
            Optional<String> refused = worker.problem("https://" + host + "/");
            if (refused.isPresent()) {
                throw new IllegalArgumentException(where + ": the worker's callback rules refuse it (it "
                        + refused.get() + "); a tenant's hosts are within the worker's, so allow it in "
                        + "sluice.callback.allowed-hosts first");
            }
            if (literal.isPresent()) {
                addresses.add(literal.get());
            } else {
                names.add(host);
            }
        }
        if (names.isEmpty() && addresses.isEmpty()) {
            throw new IllegalArgumentException(
                    setting + " names no host: leave it unset for any host the worker's " + "rules take");
        }
        return new TenantHosts(setting, names, addresses);
    }

    /** The setting, as a refusal names it. */
    String setting() {
        return setting;
    }

    /** Whether a URL's host ({@link Hosts#of}) is one of these. */
    boolean contains(String host) {
        Optional<InetAddress> literal = IpLiteral.parse(host);
        return literal.isPresent() ? addresses.contains(literal.get()) : names.contains(host);
    }
}
