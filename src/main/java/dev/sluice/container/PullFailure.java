package dev.sluice.container;

import java.util.List;
import java.util.Locale;

/**
 * Why a pull failed, read from the engine's message: the engine passes on
 * what the registry or the network said as text, not as a code, so the text
 * is matched against the phrases the engine and the registries it talks to
 * use. No bare status numbers: a message quoting a digest holds any of them.
 * The first words of a failed dispatch's detail say which it was.
 */
public enum PullFailure {
    /** The registry refused the credentials, or wanted some (401 or 403). */
    UNAUTHORIZED("unauthorized"),
    /** The registry has no such repository, tag or digest. */
    NOT_FOUND("not found"),
    /** The pull did not end within {@code sluice.images.pull-timeout}: the worker closed it. */
    TIMEOUT("timeout"),
    /** The registry could not be reached: refused, unknown name, no route, a failed TLS handshake. */
    UNREACHABLE("registry unreachable"),
    /** Anything else the engine said. */
    FAILED("failed");

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

    PullFailure(String words) {
        this.words = words;
    }

    /** The words a failed dispatch's detail starts with. */
    public String words() {
        return words;
    }

    /** The kind of failure the engine's message describes. */
    public static PullFailure of(String engineMessage) {
        String text = engineMessage == null ? "" : engineMessage.toLowerCase(Locale.ROOT);
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
