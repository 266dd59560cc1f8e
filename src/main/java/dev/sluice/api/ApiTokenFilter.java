package dev.sluice.api;

import java.util.Map;

import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import dev.sluice.actions.ApiTokens;

/**
 * Bearer tokens when {@code sluice.api.tokens} is set: on everything but the
 * Quarkus endpoints under {@code /q/} (probes, metrics, OpenAPI), so that no
 * spelling of a /v1 path gets through unchecked.
 */
public class ApiTokenFilter {

    private final ApiTokens tokens;

    @Inject
    ApiTokenFilter(ApiTokens tokens) {
        this.tokens = tokens;
    }

    @ServerRequestFilter(preMatching = true)
    public Response authenticate(ContainerRequestContext request) {
        if (tokens.open()
                || request.getUriInfo().getPath().startsWith("/q/")
                || tokens.accepts(request.getHeaderString(HttpHeaders.AUTHORIZATION))) {
            return null;
        }
        return ProblemMappers.respond(ApiTokens.UNAUTHORIZED, Map.of(HttpHeaders.WWW_AUTHENTICATE, "Bearer"));
    }
}
