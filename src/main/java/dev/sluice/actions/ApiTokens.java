package dev.sluice.actions;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/**
 * The bearer tokens of {@code sluice.api.tokens}, one check for every door that
 * takes them (the v1 API, the MCP server). Tokens are compared in constant time.
 */
@Singleton
public class ApiTokens {

    /** What a request without a valid token is told. */
    public static final Problem UNAUTHORIZED = new Problem(
            Problem.type("unauthorized"), "Unauthorized", 401, "a valid bearer token is required", null, null);

    private static final String BEARER = "Bearer ";

    private final List<byte[]> tokens;

    @Inject
    ApiTokens(ApiConfig config) {
        this.tokens = config.tokens().orElse(List.of()).stream()
                .map(String::strip)
                .filter(t -> !t.isEmpty())
                .map(t -> t.getBytes(StandardCharsets.UTF_8))
                .toList();
    }

    /** True when no token is set: then every request is let in. */
    public boolean open() {
        return tokens.isEmpty();
    }

    /** Whether an Authorization header's value carries one of the tokens. */
    public boolean accepts(String authorization) {
        return authorization != null
                && authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())
                && known(authorization.substring(BEARER.length()).strip().getBytes(StandardCharsets.UTF_8));
    }

    private boolean known(byte[] presented) {
        boolean match = false;
        for (byte[] token : tokens) {
            match |= MessageDigest.isEqual(token, presented);
        }
        return match;
    }
}
