package dev.sluice.summary;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The summarizer's URL as the worker accepts it (ADR 0056): the dispatch's
 * kept output and the API key go there, so only over {@code https}, to a host
 * the operator named in {@code sluice.summarizer.allowed-hosts}. Plain
 * {@code http} only to a loopback address, where nothing crosses a network
 * (a local proxy, the tests). A URL that breaks either is configuration, so
 * the worker refuses to start, naming the setting.
 */
final class SummarizerEndpoint {

    private static final Pattern LOOPBACK_V4 =
            Pattern.compile("127(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");

    private SummarizerEndpoint() {}

    /** The URL when it may be used; otherwise the reason, for the start-up failure. */
    static URI checked(URI url, List<String> allowedHosts) {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        String host = url.getHost() == null ? "" : normal(url.getHost());
        if (host.isEmpty() || url.getRawUserInfo() != null) {
            throw refused(url, "has no host the worker can read, or carries user information");
        }
        if (!scheme.equals("https") && !(scheme.equals("http") && loopback(host))) {
            throw refused(
                    url,
                    "must be https (plain http only to a loopback address): the output and the key cross the"
                            + " network");
        }
        if (allowedHosts.stream().map(SummarizerEndpoint::normal).noneMatch(host::equals)) {
            throw refused(
                    url,
                    "names host " + host + ", which is not on sluice.summarizer.allowed-hosts (the hosts kept"
                            + " output may be sent to): add it there");
        }
        return url;
    }

    private static boolean loopback(String host) {
        return host.equals("localhost")
                || host.equals("[::1]")
                || LOOPBACK_V4.matcher(host).matches();
    }

    /** Lower case, a final dot dropped; IPv6 literals keep their brackets, as URI.getHost gives them. */
    private static String normal(String host) {
        String h = host.strip().toLowerCase(Locale.ROOT);
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        return h.indexOf(':') >= 0 && !h.startsWith("[") ? "[" + h + "]" : h;
    }

    private static IllegalArgumentException refused(URI url, String why) {
        // The URL without its query: a key put there by mistake stays out of the log.
        String shown =
                url.getScheme() + "://" + url.getRawAuthority() + (url.getRawPath() == null ? "" : url.getRawPath());
        return new IllegalArgumentException("sluice.summarizer.url " + shown + " " + why);
    }
}
