package dev.sluice.summary;

import java.net.URI;
import java.util.List;
import java.util.Locale;

import dev.sluice.outbound.Hosts;

/**
 * The summarizer's URL as the worker accepts it (ADR 0056): the dispatch's
 * kept output and the API key go there, so only over {@code https}, to a host
 * the operator named in {@code sluice.summarizer.allowed-hosts}. Plain
 * {@code http} only to a loopback address, where nothing crosses a network
 * (a local proxy, the tests). A URL that breaks either is configuration, so
 * the worker refuses to start, naming the setting.
 */
final class SummarizerEndpoint {

    private SummarizerEndpoint() {}

    /** The URL when it may be used; otherwise the reason, for the start-up failure. */
    static URI checked(URI url, List<String> allowedHosts) {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        String host = Hosts.of(url);
        if (host.isEmpty() || url.getRawUserInfo() != null) {
            throw refused(url, "has no host the worker can read, or carries user information");
        }
        if (!scheme.equals("https") && !(scheme.equals("http") && Hosts.loopback(host))) {
            throw refused(
                    url,
                    "must be https (plain http only to a loopback address): the output and the key cross the"
                            + " network");
        }
        if (allowedHosts.stream().map(Hosts::normal).noneMatch(host::equals)) {
            throw refused(
                    url,
                    "names host " + host + ", which is not on sluice.summarizer.allowed-hosts (the hosts kept"
                            + " output may be sent to): add it there");
        }
        return url;
    }

    private static IllegalArgumentException refused(URI url, String why) {
        // The URL without its query: a key put there by mistake stays out of the log.
        String shown =
                url.getScheme() + "://" + url.getRawAuthority() + (url.getRawPath() == null ? "" : url.getRawPath());
        return new IllegalArgumentException("sluice.summarizer.url " + shown + " " + why);
    }
}
