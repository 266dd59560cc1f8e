package dev.sluice.api;

import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.actions.ApiConfig;
import dev.sluice.actions.ApiTokens;
import dev.sluice.actions.Caller;
import dev.sluice.actions.Problem;
import dev.sluice.actions.Refusals;
import dev.sluice.actions.reading.BodyRefused;
import dev.sluice.actions.reading.DecodingBudget;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * Bodies over {@code sluice.api.max-request-size} get 413 as a problem detail,
 * before anything is created. The HTTP layer's own 413 is turned into the
 * same problem detail. A body is charged to the caller's tenant's share of
 * the decoding budget before its first byte is read (ADR 0076), and given
 * back when its answer is sent: its declared length, or the limit while a
 * chunked one is read here; past the worker's or the tenant's bound, 429 at
 * once. Over HTTP/2 a body may declare no length and cannot be read ahead of
 * the REST layer: the bounded reader charges it as its bytes arrive and
 * refuses it once it runs past the limit. A request with no known token is
 * charged nothing: the token check refuses it without reading it.
 */
@Singleton
class BodyLimit {

    private final long max;
    private final ApiTokens tokens;
    private final DecodingBudget budget;
    private final Refusals refusals;

    @Inject
    BodyLimit(ApiConfig config, ApiTokens tokens, DecodingBudget budget, Refusals refusals) {
        this.max = config.maxRequestSize().asLongValue();
        this.tokens = tokens;
        this.budget = budget;
        this.refusals = refusals;
    }

    void routes(@Observes Router router) {
        BodyHandler chunked = BodyHandler.create(false).setBodyLimit(max);
        router.route("/v1/*").order(Integer.MIN_VALUE + 1).handler(rc -> {
            HttpServerRequest request = rc.request();
            String length = request.getHeader("Content-Length");
            long declared = length == null ? 0 : declared(length);
            if (declared > max) {
                // A declared length past the limit is refused before a byte is read.
                tooLarge(rc);
            } else if (declared > 0) {
                if (charged(rc, declared)) {
                    rc.next();
                }
            } else if (request.getHeader("Transfer-Encoding") != null && request.version() != HttpVersion.HTTP_2) {
                // A chunked body is read here, within the limit, and refused as soon as it runs past it; charged
                // the most a body may be while it is read, then its length.
                if (charged(rc, max)) {
                    chunked.handle(rc);
                }
            } else if (mayCarryBody(request)) {
                // HTTP/2 without a length (its end may come only after its headers): the REST layer streams it
                // into the bounded reader, which charges its bytes as they arrive and refuses it past the limit.
                if (charged(rc, 0)) {
                    rc.next();
                }
            } else {
                rc.next();
            }
        });
        router.route("/v1/*").order(Integer.MIN_VALUE + 2).handler(rc -> {
            DecodingBudget.Grant grant = rc.get(DecodingBudget.CONTEXT_KEY);
            if (grant != null && rc.body().buffer() != null) {
                grant.settle(rc.body().length());
            }
            rc.next();
        });
        router.route().order(Integer.MIN_VALUE).failureHandler(rc -> {
            if (rc.statusCode() == 413 && !rc.response().ended()) {
                tooLarge(rc);
            } else {
                rc.next();
            }
        });
    }

    private static boolean mayCarryBody(HttpServerRequest request) {
        HttpMethod method = request.method();
        return method == HttpMethod.POST || method == HttpMethod.PUT || method == HttpMethod.PATCH;
    }

    /**
     * Charges the body to its tenant's share until the answer is sent; false
     * when it was refused (answered 429), or has no known caller (left to the
     * token check, unread).
     */
    private boolean charged(RoutingContext rc, long bytes) {
        Optional<Caller> caller = tokens.caller(rc.request().getHeader("Authorization"));
        if (caller.isEmpty()) {
            rc.next();
            return false;
        }
        DecodingBudget.Grant grant;
        try {
            grant = budget.take(caller.get().tenant(), bytes);
        } catch (BodyRefused busy) {
            Refusals.Refusal refusal = refusals.body(busy);
            answer(rc, refusal.problem(), refusal.headers());
            return false;
        }
        rc.put(DecodingBudget.CONTEXT_KEY, grant);
        rc.addEndHandler(ended -> grant.close());
        return true;
    }

    private static long declared(String length) {
        try {
            return Long.parseLong(length.strip());
        } catch (NumberFormatException e) {
            return 0; // malformed lengths are the HTTP layer's to refuse
        }
    }

    private void tooLarge(RoutingContext rc) {
        Problem problem = new Problem(
                Problem.type("body-too-large"),
                "The request body is too large",
                413,
                "request bodies may be at most " + max + " bytes; nothing was created",
                null,
                null);
        answer(rc, problem, Map.of());
    }

    /** Answered before the body is read: an HTTP/1 connection is closed rather than read to its end. */
    private static void answer(RoutingContext rc, Problem problem, Map<String, String> headers) {
        headers.forEach(rc.response()::putHeader);
        if (rc.request().version() != HttpVersion.HTTP_2) {
            rc.response().putHeader("Connection", "close");
        }
        rc.response()
                .setStatusCode(problem.status())
                .putHeader("Content-Type", Problem.MEDIA_TYPE)
                .end(Json.encode(problem));
    }
}
