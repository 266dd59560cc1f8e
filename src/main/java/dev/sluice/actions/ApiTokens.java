package dev.sluice.actions;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.record.DispatchKey;
import io.quarkus.runtime.Startup;

/**
 * The bearer tokens of {@code sluice.api.tokens} and {@code sluice.api.operator-tokens},
 * one check for every door that takes them (the v1 API, the MCP server), and the
 * {@link Caller} each one stands for (ADR 0052). An entry is {@code tenant:token}
 * or a bare token of the {@code default} tenant. A presented token is compared
 * with every token in constant time, and no token is ever written to a log or a
 * message: a malformed entry is named by its position. Read at start, so that a
 * malformed entry stops the worker before it serves anything.
 */
@Startup
@Singleton
public class ApiTokens {

    /** What a request without a valid token is told. */
    public static final Problem UNAUTHORIZED = new Problem(
            Problem.type("unauthorized"), "Unauthorized", 401, "a valid bearer token is required", null, null);

    /** The shortest token taken: a guessable token is no boundary between tenants. */
    static final int MIN_LENGTH = 16;

    private static final String BEARER = "Bearer ";

    private record Token(byte[] secret, Caller caller) {}

    private final List<Token> tokens;

    @Inject
    ApiTokens(ApiConfig config) {
        List<Token> all = new ArrayList<>();
        parse("sluice.api.tokens", config.tokens(), false, all);
        parse("sluice.api.operator-tokens", config.operatorTokens(), true, all);
        this.tokens = List.copyOf(all);
    }

    private static void parse(String setting, Optional<List<String>> entries, boolean operator, List<Token> into) {
        List<String> list = entries.orElse(List.of());
        for (int i = 0; i < list.size(); i++) {
            String entry = list.get(i).strip();
            if (entry.isEmpty()) {
                continue;
            }
            int colon = entry.indexOf(':');
            String tenant = colon < 0 ? DispatchKey.DEFAULT_TENANT : entry.substring(0, colon);
            String secret = entry.substring(colon + 1);
            String where = setting + ", entry " + (i + 1);
            if (!DispatchKey.validTenant(tenant)) {
                throw new IllegalStateException(where + ": the tenant must match " + DispatchKey.TENANT_PATTERN);
            }
            if (secret.length() < MIN_LENGTH || !secret.equals(secret.strip())) {
                throw new IllegalStateException(
                        where + ": a token must be at least " + MIN_LENGTH + " characters, without spaces");
            }
            for (Token t : into) {
                if (MessageDigest.isEqual(t.secret(), secret.getBytes(StandardCharsets.UTF_8))) {
                    throw new IllegalStateException(where + ": the same token is given twice");
                }
            }
            into.add(new Token(secret.getBytes(StandardCharsets.UTF_8), new Caller(tenant, operator)));
        }
    }

    /** True when no token is set: then every request is let in as {@link Caller#ANONYMOUS}. */
    public boolean open() {
        return tokens.isEmpty();
    }

    /**
     * Who an Authorization header's value stands for: {@link Caller#ANONYMOUS} when no
     * token is set, empty when it carries no known token.
     */
    public Optional<Caller> caller(String authorization) {
        if (open()) {
            return Optional.of(Caller.ANONYMOUS);
        }
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return Optional.empty();
        }
        byte[] presented = authorization.substring(BEARER.length()).strip().getBytes(StandardCharsets.UTF_8);
        Caller found = null;
        for (Token token : tokens) { // every token compared, whichever matches
            if (MessageDigest.isEqual(token.secret(), presented)) {
                found = token.caller();
            }
        }
        return Optional.ofNullable(found);
    }
}
