package dev.sluice.mcp;

import java.util.Optional;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.actions.ApiTokens;
import dev.sluice.actions.Caller;
import dev.sluice.actions.Problem;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;

/**
 * The API's bearer tokens on the MCP server too. Its routes are the HTTP
 * layer's, not the REST layer's, so the REST filter never sees them: this
 * filter runs before every route, checks those under the MCP root, and keeps
 * the {@link Caller} in the request's context, where the tools find it (the
 * MCP server makes the HTTP request current while a tool runs).
 */
@Singleton
class McpAccess {

    /** Before the routes, and after nothing in particular. */
    private static final int PRIORITY = 100;

    private final ApiTokens tokens;
    private final String root;
    private final byte[] unauthorized;

    @Inject
    McpAccess(
            ApiTokens tokens,
            ObjectMapper json,
            @ConfigProperty(name = "quarkus.mcp.server.http.root-path", defaultValue = "/mcp") String root)
            throws JsonProcessingException {
        this.tokens = tokens;
        this.root = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
        this.unauthorized = json.writeValueAsBytes(ApiTokens.UNAUTHORIZED);
    }

    void register(@Observes Filters filters) {
        filters.register(this::check, PRIORITY);
    }

    private void check(RoutingContext rc) {
        String path = rc.normalizedPath();
        boolean mcp = path.equals(root) || path.startsWith(root + "/");
        if (!mcp) {
            rc.next();
            return;
        }
        Optional<Caller> caller = tokens.caller(rc.request().getHeader("Authorization"));
        if (caller.isPresent()) {
            rc.put(Caller.CONTEXT_KEY, caller.get());
            rc.next();
            return;
        }
        rc.response()
                .setStatusCode(401)
                .putHeader("Content-Type", Problem.MEDIA_TYPE)
                .putHeader("WWW-Authenticate", "Bearer")
                .end(Buffer.buffer(unauthorized));
    }
}
