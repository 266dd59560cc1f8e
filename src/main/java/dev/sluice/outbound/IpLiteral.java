package dev.sluice.outbound;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * IP address literals in their canonical spellings only, parsed without any
 * name lookup: dotted-quad IPv4 without leading zeros, and IPv6 (bracketed or
 * not, no zone). Everything else, {@code 127.1} and {@code 0x7f.0.0.1}
 * included, is not a literal here.
 */
public final class IpLiteral {

    private static final String OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
    private static final Pattern IPV4 = Pattern.compile(OCTET + "(\\." + OCTET + "){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:.]+");
    /** A last label no top-level domain has: a number, decimal, octal or hex ({@code 1}, {@code 0x7f}). */
    private static final Pattern NUMERIC_LABEL = Pattern.compile("[0-9]+|0[xX][0-9a-fA-F]*");

    private IpLiteral() {}

    /**
     * Whether a host is an address in any spelling a resolver may read as one:
     * a literal {@link #parse} takes, or a name whose last label is a number
     * ({@code 127.1}, {@code 0x7f.0.0.1}, {@code 2130706433}), which the C
     * library's {@code inet_aton} turns into an address and no top-level
     * domain can be (RFC 3696, section 2).
     */
    public static boolean addressLike(String host) {
        if (parse(host).isPresent() || host.startsWith("[")) {
            return true;
        }
        String h = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        return NUMERIC_LABEL.matcher(h.substring(h.lastIndexOf('.') + 1)).matches();
    }

    public static Optional<InetAddress> parse(String text) {
        String t = text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
        boolean v4 = IPV4.matcher(t).matches();
        boolean v6 = t.indexOf(':') >= 0 && IPV6.matcher(t).matches();
        if (!v4 && !v6) {
            return Optional.empty();
        }
        try {
            // Only literals reach here, so this parses and never resolves.
            return Optional.of(InetAddress.getByName(t));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }
}
