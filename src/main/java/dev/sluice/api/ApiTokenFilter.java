package dev.sluice.api;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Bearer tokens when {@code sluice.api.tokens} is set: on everything but the
 * Quarkus endpoints under {@code /q/} (probes, metrics, OpenAPI), so that no
 * spelling of a /v1 path gets through unchecked. Tokens are compared in
 * constant time.
 */
public class ApiTokenFilter {

    private static final String BEARER = "Bearer ";

    private final List<byte[]> tokens;

    @Inject
    ApiTokenFilter(ApiConfig config) {
        this.tokens = config.tokens().orElse(List.of()).stream()
                .map(String::strip)
                .filter(t -> !t.isEmpty())
                .map(t -> t.getBytes(StandardCharsets.UTF_8))
                .toList();
    }

    @ServerRequestFilter(preMatching = true)
    public Response authenticate(ContainerRequestContext request) {
        if (tokens.isEmpty() || request.getUriInfo().getPath().startsWith("/q/")) {
            return null;
        }
        String header = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        if (header != null
                && header.regionMatches(true, 0, BEARER, 0, BEARER.length())
                && known(header.substring(BEARER.length()).strip().getBytes(StandardCharsets.UTF_8))) {
            return null;
        }
        return ProblemMappers.respond(
                new Problem(
                        Problem.type("unauthorized"),
                        "Unauthorized",
                        401,
                        "a valid bearer token is required",
                        null,
                        null),
                Map.of(HttpHeaders.WWW_AUTHENTICATE, "Bearer"));
    }

    private boolean known(byte[] presented) {
        boolean match = false;
        for (byte[] token : tokens) {
            match |= MessageDigest.isEqual(token, presented);
        }
        return match;
    }
}
