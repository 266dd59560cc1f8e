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
 * or a bare token of the {@code default} tenant, and nothing in between
 * ({@link Entry}; ADR 0074). A presented token is compared
 * with every token in constant time, and no token is ever written to a log or a
 * message: a malformed entry is named by its position. Read at start, so that a
 * malformed entry stops the worker before it serves anything.
 */
@Startup(Integer.MIN_VALUE + 1) // after the exposure check, before the lease touches the store
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
            String where = setting + ", entry " + (i + 1);
            Entry parsed = Entry.parse(entry).orElseThrow(() -> new IllegalStateException(where + ": " + Entry.RULE));
            byte[] secret = parsed.token().getBytes(StandardCharsets.UTF_8);
            for (Token t : into) {
                if (MessageDigest.isEqual(t.secret(), secret)) {
                    throw new IllegalStateException(where + ": the same token is given twice");
                }
            }
            into.add(new Token(secret, new Caller(parsed.tenant(), operator)));
        }
    }

    /**
     * One entry, read one way only: with no {@code :} it is a bare token of the
     * {@code default} tenant; with one, it is {@code tenant:token}. Anything
     * else is refused rather than guessed at, so a token that happens to hold a
     * {@code :} never silently becomes a shorter token of another tenant.
     */
    record Entry(String tenant, String token) {

        /** What every entry must be, as a refusal says it; it never quotes the entry. */
        static final String RULE = "an entry is a token, or tenant:token with the tenant matching "
                + DispatchKey.TENANT_PATTERN + "; a token is at least " + MIN_LENGTH
                + " visible ASCII characters other than ':' (a bare token may not contain ':')";

        static Optional<Entry> parse(String entry) {
            int colon = entry.indexOf(':');
            String tenant = colon < 0 ? DispatchKey.DEFAULT_TENANT : entry.substring(0, colon);
            String token = entry.substring(colon + 1);
            return DispatchKey.validTenant(tenant) && validToken(token)
                    ? Optional.of(new Entry(tenant, token))
                    : Optional.empty();
        }

        private static boolean validToken(String token) {
            return token.length() >= MIN_LENGTH && token.chars().allMatch(c -> c > ' ' && c < 0x7f && c != ':');
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
