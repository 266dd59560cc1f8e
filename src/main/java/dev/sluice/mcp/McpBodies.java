package dev.sluice.mcp;

import java.util.Optional;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.sluice.actions.ApiConfig;
import dev.sluice.actions.ApiTokens;
import dev.sluice.actions.Caller;
import dev.sluice.actions.Problem;
import dev.sluice.actions.Refusals;
import dev.sluice.actions.reading.BodyReader;
import dev.sluice.actions.reading.BodyRefused;
import dev.sluice.actions.reading.DecodingBudget;
import io.netty.buffer.ByteBufInputStream;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * MCP messages bounded before the MCP server reads them (ADR 0076). The
 * server decodes each POST into a tree whole (Vert.x's JSON, on Quarkus's
 * mapper), with no bound but the body's length, before any tool sees its
 * arguments; so, before its routes, a POST under the MCP root is charged to
 * the decoding budget (429 at once past it), read within
 * {@code sluice.api.max-request-size}, and scanned token by token, building
 * nothing, within the same bounds as the API's bodies: a tool call's
 * {@code arguments} as a dispatch's and a group's. A message past a bound is
 * answered with the API's problem detail and HTTP status (413, 422 naming
 * the argument, 429), and the server never sees it. A request with no known
 * token is left to {@link McpAccess} without being read.
 */
@Singleton
class McpBodies {

    private final long max;
    private final String root;
    private final ApiTokens tokens;
    private final DecodingBudget budget;
    private final BodyReader reader;
    private final Refusals refusals;

    @Inject
    McpBodies(
            ApiConfig api,
            ApiTokens tokens,
            DecodingBudget budget,
            BodyReader reader,
            Refusals refusals,
            @ConfigProperty(name = "quarkus.mcp.server.http.root-path", defaultValue = "/mcp") String root) {
        this.max = api.maxRequestSize().asLongValue();
        this.root = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
        this.tokens = tokens;
        this.budget = budget;
        this.reader = reader;
        this.refusals = refusals;
    }

    void routes(@Observes Router router) {
        BodyHandler read = BodyHandler.create(false).setBodyLimit(max);
        // "/mcp/*" also matches "/mcp" itself; the body handler the MCP routes carry finds the body read.
        router.route(HttpMethod.POST, root + "/*").order(Integer.MIN_VALUE + 2).handler(rc -> {
            if (charged(rc)) {
                read.handle(rc);
            }
        });
        router.route(HttpMethod.POST, root + "/*").order(Integer.MIN_VALUE + 3).handler(this::scanned);
    }

    /** Charged until the answer is sent; false when refused (answered) at once. */
    private boolean charged(RoutingContext rc) {
        Optional<Caller> caller = tokens.caller(rc.request().getHeader("Authorization"));
        if (caller.isEmpty()) {
            rc.next(); // McpAccess refuses it, unread
            return false;
        }
        String length = rc.request().getHeader("Content-Length");
        long bytes = length == null ? max : Math.min(max, declared(length));
        try {
            DecodingBudget.Grant grant = budget.take(caller.get().tenant(), bytes);
            rc.put(DecodingBudget.CONTEXT_KEY, grant);
            rc.addEndHandler(ended -> grant.close());
            return true;
        } catch (BodyRefused busy) {
            answer(rc, busy);
            return false;
        }
    }

    /** Scanned off the event loop; the MCP server reads it only if it passes. */
    private void scanned(RoutingContext rc) {
        DecodingBudget.Grant grant = rc.get(DecodingBudget.CONTEXT_KEY);
        Buffer body = rc.body().buffer();
        if (grant == null || body == null || body.length() == 0) {
            if (grant != null) {
                grant.settle(0);
            }
            rc.next();
            return;
        }
        grant.settle(body.length()); // its length from now on, not the most a body may be
        rc.vertx()
                .executeBlocking(
                        () -> {
                            reader.scanMcpMessage(new ByteBufInputStream(body.getByteBuf()), grant);
                            return null;
                        },
                        false)
                .onComplete(scan -> {
                    if (scan.succeeded()) {
                        rc.next();
                    } else if (scan.cause() instanceof BodyRefused refused) {
                        answer(rc, refused);
                    } else {
                        rc.fail(scan.cause());
                    }
                });
    }

    private void answer(RoutingContext rc, BodyRefused refused) {
        Refusals.Refusal refusal = refusals.body(refused);
        Problem problem = refusal.problem();
        refusal.headers().forEach(rc.response()::putHeader);
        if (rc.request().version() != HttpVersion.HTTP_2 && !rc.request().isEnded()) {
            rc.response().putHeader("Connection", "close"); // refused before it was read: not read to its end
        }
        rc.response()
                .setStatusCode(problem.status())
                .putHeader("Content-Type", Problem.MEDIA_TYPE)
                .end(Json.encode(problem));
    }

    private static long declared(String length) {
        try {
            return Math.max(0, Long.parseLong(length.strip()));
        } catch (NumberFormatException e) {
            return 0; // malformed lengths are the HTTP layer's to refuse
        }
    }
}
