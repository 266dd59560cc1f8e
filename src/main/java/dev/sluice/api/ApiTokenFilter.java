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
import dev.sluice.actions.Problem;
import dev.sluice.actions.RelayedCallers;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * Every request to the API is someone's (ADR 0052): its bearer token names the
 * {@link Caller}, kept in the request's context for the resources
 * ({@link Callers}); without a known token, 401. A read another replica
 * relayed is the replicas' own (ADR 0072): its signature names the tenant it
 * is for, no token is looked at, and one that does not verify is 401 and
 * acts for no one. Before matching, so that no spelling of a path gets
 * through unchecked. The probes, metrics and the API document are on the
 * management port (ADR 0053), which this filter never sees.
 */
public class ApiTokenFilter {

    /** What a relay whose signature does not verify is told; why goes to this worker's log alone. */
    static final Problem RELAY_REFUSED = new Problem(
            Problem.type("unauthorized"),
            "Unauthorized",
            401,
            "a relayed read needs the signature of a replica on this store",
            null,
            null);

    private final ApiTokens tokens;
    private final RelayedCallers relayed;

    @Inject
    ApiTokenFilter(ApiTokens tokens, RelayedCallers relayed) {
        this.tokens = tokens;
        this.relayed = relayed;
    }

    @ServerRequestFilter(preMatching = true)
    public Response authenticate(ContainerRequestContext request, RoutingContext context) {
        String relay = request.getHeaderString(RelayedCallers.HEADER);
        if (relay != null || request.getHeaderString(RelayedCallers.UNSIGNED) != null) {
            return relayed(relay, context);
        }
        Optional<Caller> caller = tokens.caller(request.getHeaderString(HttpHeaders.AUTHORIZATION));
        if (caller.isPresent()) {
            context.put(Caller.CONTEXT_KEY, caller.get());
            return null;
        }
        return ProblemMappers.respond(ApiTokens.UNAUTHORIZED, Map.of(HttpHeaders.WWW_AUTHENTICATE, "Bearer"));
    }

    /** A read another replica relayed, for the tenant its signature names, or nobody's. */
    private Response relayed(String signature, RoutingContext context) {
        HttpServerRequest http = context.request();
        Optional<Caller> caller = relayed.caller(signature, http.method().name(), http.uri());
        if (caller.isPresent()) {
            context.put(Caller.CONTEXT_KEY, caller.get());
            context.put(Relays.RELAYED, Boolean.TRUE);
            return null;
        }
        return ProblemMappers.respond(RELAY_REFUSED, Map.of(HttpHeaders.WWW_AUTHENTICATE, RelayedCallers.HEADER));
    }
}
