package dev.sluice.image;

import java.util.List;
import java.util.Locale;

/**
 * Why a pull failed, read from the engine's message: the engine passes on
 * what the registry or the network said as text, not as a code, so the text
 * is matched against the phrases the engine and the registries it talks to
 * use. No bare status numbers: a message quoting a digest holds any of them.
 *
 * <p>A failed dispatch's detail is {@link #detail()}: these words and a
 * sentence of ours, never the engine's text, which can carry what a registry
 * the tenant named answered (its body, its addresses, its certificate's
 * names). The worker's log keeps the engine's text for the operator.
 */
public enum PullFailure {
    /** The registry refused the credentials, or wanted some (401 or 403). */
    UNAUTHORIZED("unauthorized", "the registry refused the credentials, or asked for some"),
    /** The registry has no such repository, tag or digest. */
    NOT_FOUND("not found", "the registry has no such repository, tag or digest"),
    /** The pull did not end within {@code sluice.images.pull-timeout}: the worker closed it. */
    TIMEOUT("timeout", "the pull did not end within sluice.images.pull-timeout, and was closed"),
    /** The registry refuses more pulls for now (429, Docker Hub's pull rate limit). */
    RATE_LIMITED("rate limited", "the registry refuses more pulls for now (too many requests)"),
    /** The registry could not be reached: refused, unknown name, no route, a failed TLS handshake. */
    UNREACHABLE(
            "registry unreachable",
            "the registry could not be reached: no connection, a name that does not resolve, or a TLS "
                    + "certificate the engine does not trust"),
    /** The registry's name leads to an address the allow-list opens only to registries it names (ADR 0075). */
    NOT_ALLOWED(
            "registry not allowed",
            "the registry's name resolves to a loopback, private or other internal address, and no pattern of "
                    + "sluice.images.allowed names the registry; it was not asked"),
    /** Anything else the engine said. */
    FAILED("failed", "the engine could not pull the image; the worker's log has the engine's own words");

    private static final List<String> RATE_LIMITED_PHRASES =
            List.of("toomanyrequests", "too many requests", "rate limit");

    private static final List<String> NOT_FOUND_PHRASES =
            List.of("manifest unknown", "name unknown", "not found", "does not exist");

    private static final List<String> UNAUTHORIZED_PHRASES = List.of(
            "unauthorized",
            "authentication required",
            "access denied",
            "requested access to the resource is denied",
            "no basic auth credentials",
            "incorrect username or password",
            "forbidden");

    private static final List<String> UNREACHABLE_PHRASES = List.of(
            "connection refused",
            "no such host",
            "dial tcp",
            "i/o timeout",
            "no route to host",
            "network is unreachable",
            "connection reset",
            "tls handshake",
            "x509:",
            "certificate",
            "server gave http response to https client",
            "client sent an http request to an https server",
            "timeout exceeded while awaiting headers",
            "context deadline exceeded",
            "eof");

    private final String words;
    private final String sentence;

    PullFailure(String words, String sentence) {
        this.words = words;
        this.sentence = sentence;
    }

    /** The words a failed dispatch's detail starts with. */
    public String words() {
        return words;
    }

    /** What a failed dispatch's result says: the words, a colon, and a fixed sentence. */
    public String detail() {
        return words + ": " + sentence;
    }

    /** The kind of failure the engine's message describes. */
    public static PullFailure of(String engineMessage) {
        String text = engineMessage == null ? "" : engineMessage.toLowerCase(Locale.ROOT);
        if (contains(text, RATE_LIMITED_PHRASES)) {
            return RATE_LIMITED;
        }
        // "pull access denied ..., repository does not exist or may require 'docker login'" is Hub's answer for
        // both; auth words are tested first only where the registry said nothing of a missing name.
        if (contains(text, NOT_FOUND_PHRASES) && !text.contains("unauthorized")) {
            return NOT_FOUND;
        }
        if (contains(text, UNAUTHORIZED_PHRASES)) {
            return UNAUTHORIZED;
        }
        if (contains(text, UNREACHABLE_PHRASES)) {
            return UNREACHABLE;
        }
        return FAILED;
    }

    private static boolean contains(String text, List<String> phrases) {
        return phrases.stream().anyMatch(text::contains);
    }
}
