package dev.sluice.api;

import java.util.List;
import java.util.Optional;

import dev.sluice.actions.ApiConfig;
import dev.sluice.outbound.Hosts;

/**
 * Who can reach the API, decided once at start from where the HTTP server
 * listens and which tokens are set (ADR 0053). A worker that listens beyond
 * loopback with no token would let anyone who reaches its port run containers,
 * so it starts only when {@code sluice.api.anonymous} says that is meant.
 */
public enum Exposure {
    /** Tokens are set: every request to /v1 and /mcp needs one. */
    TOKENS,
    /** No token, but only this machine can connect. */
    LOOPBACK,
    /** No token, beyond loopback, allowed by {@code sluice.api.anonymous}: warned at every start. */
    ANONYMOUS,
    /** No token, beyond loopback, not allowed: the worker must not start. */
    REFUSED;

    /** What the log says at every start of an anonymous worker. */
    static final String WARNING = "the API is open to anyone who can reach %s: no sluice.api.tokens or"
            + " sluice.api.operator-tokens are set, and sluice.api.anonymous=true lets every request in";

    /** Why a worker refuses to start, naming the three ways out. */
    static final String REFUSAL = "refusing to start: the worker listens on %s, beyond loopback, and no"
            + " sluice.api.tokens or sluice.api.operator-tokens are set, so anyone who can reach it could"
            + " run containers. Set SLUICE_API_TOKENS (or SLUICE_API_OPERATOR_TOKENS), or listen on loopback"
            + " only (QUARKUS_HTTP_HOST=127.0.0.1), or set SLUICE_API_ANONYMOUS=true to open the API to"
            + " anyone on purpose";

    /** The exposure of a worker whose HTTP server listens on {@code host} with these settings. */
    public static Exposure of(String host, ApiConfig config) {
        if (named(config.tokens()) || named(config.operatorTokens())) {
            return TOKENS;
        }
        if (loopback(host)) {
            return LOOPBACK;
        }
        return config.anonymous() ? ANONYMOUS : REFUSED;
    }

    /** Whether {@code host} is a loopback address by its spelling alone, never looked up ({@link Hosts#loopback}). */
    static boolean loopback(String host) {
        return Hosts.loopback(host);
    }

    /** Whether a token list names at least one token; blank entries name none. */
    private static boolean named(Optional<List<String>> tokens) {
        return tokens.orElse(List.of()).stream().anyMatch(t -> !t.isBlank());
    }
}
