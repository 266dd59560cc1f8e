package dev.sluice.api;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.actions.ApiConfig;
import dev.sluice.actions.Problem;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * Bodies over {@code sluice.api.max-request-size} get 413 as a problem detail,
 * before anything is created. The HTTP layer's own 413 is turned into the
 * same problem detail.
 */
@Singleton
class BodyLimit {

    private final long max;

    @Inject
    BodyLimit(ApiConfig config) {
        this.max = config.maxRequestSize().asLongValue();
    }

    void routes(@Observes Router router) {
        BodyHandler chunked = BodyHandler.create(false).setBodyLimit(max);
        router.route("/v1/*").order(Integer.MIN_VALUE + 1).handler(rc -> {
            String length = rc.request().getHeader("Content-Length");
            if (length != null) {
                // A declared length past the limit is refused before a byte is read.
                if (declared(length) > max) {
                    tooLarge(rc);
                } else {
                    rc.next();
                }
            } else if (rc.request().getHeader("Transfer-Encoding") != null) {
                // A chunked body is read here, within the limit, and refused as soon as it runs past it.
                chunked.handle(rc);
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
        rc.response()
                .setStatusCode(413)
                .putHeader("Content-Type", Problem.MEDIA_TYPE)
                .putHeader("Connection", "close")
                .end(Json.encode(problem));
    }
}
