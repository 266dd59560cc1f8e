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
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * Bodies over {@code sluice.api.max-request-size} get 413 as a problem detail,
 * before anything is created. The HTTP layer's own 413 is turned into the
 * same problem detail. A body within it is charged to the decoding budget
 * before its first byte is read (ADR 0074), its declared length, or the limit
 * while it declares none, and given back when its answer is sent; past the
 * worker's or the caller's tenant's bound it gets 429 at once. A request
 * with no known token is charged nothing: the token check refuses it without
 * reading it.
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
        BodyHandler unknownLength = BodyHandler.create(false).setBodyLimit(max);
        router.route("/v1/*").order(Integer.MIN_VALUE + 1).handler(rc -> {
            String length = rc.request().getHeader("Content-Length");
            if (length != null && declared(length) > max) {
                // A declared length past the limit is refused before a byte is read.
                tooLarge(rc);
                return;
            }
            boolean unknown = length == null && unknownLength(rc.request());
            long charge = unknown ? max : length == null ? 0 : declared(length);
            if (charge > 0 && !charged(rc, charge)) {
                return;
            }
            if (unknown) {
                // A body of unknown length is read here, within the limit, and refused as soon as it runs past it.
                unknownLength.handle(rc);
            } else {
                rc.next();
            }
        });
        router.route().order(Integer.MIN_VALUE).failureHandler(rc -> {
            if (rc.statusCode() == 413 && !rc.response().ended()) {
                tooLarge(rc);
            } else {
                rc.next();
            }
        });
    }

    /** Chunked over HTTP/1.1; over HTTP/2, a stream whose headers did not end it and named no length. */
    private static boolean unknownLength(HttpServerRequest request) {
        return request.getHeader("Transfer-Encoding") != null
                || (request.version() == HttpVersion.HTTP_2 && !request.isEnded());
    }

    /** Charges the body to its tenant's share of the decoding budget until the answer is sent, or answers 429. */
    private boolean charged(RoutingContext rc, long bytes) {
        Optional<Caller> caller = tokens.caller(rc.request().getHeader("Authorization"));
        if (caller.isEmpty()) {
            return true;
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
