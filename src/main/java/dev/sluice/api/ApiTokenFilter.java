package dev.sluice.api;

import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import dev.sluice.actions.ApiTokens;
import dev.sluice.actions.Caller;
import io.vertx.ext.web.RoutingContext;

/**
 * Every request to the API is someone's (ADR 0052): its bearer token names the
 * {@link Caller}, kept in the request's context for the resources
 * ({@link Callers}); without a known token, 401. Before matching, so that no
 * spelling of a path gets through unchecked. The probes, metrics and the API
 * document are on the management port (ADR 0053), which this filter never sees.
 */
public class ApiTokenFilter {

    private final ApiTokens tokens;

    @Inject
    ApiTokenFilter(ApiTokens tokens) {
        this.tokens = tokens;
    }

    @ServerRequestFilter(preMatching = true)
    public Response authenticate(ContainerRequestContext request, RoutingContext context) {
        Optional<Caller> caller = tokens.caller(request.getHeaderString(HttpHeaders.AUTHORIZATION));
        if (caller.isPresent()) {
            context.put(Caller.CONTEXT_KEY, caller.get());
            return null;
        }
        return ProblemMappers.respond(ApiTokens.UNAUTHORIZED, Map.of(HttpHeaders.WWW_AUTHENTICATE, "Bearer"));
    }
}
