package dev.sluice.api;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

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
        // Read /v1 bodies here, within the limit: a declared length past it is refused
        // up front, a chunked body as soon as it runs past it.
        router.route("/v1/*").order(Integer.MIN_VALUE + 1)
                .handler(BodyHandler.create(false).setBodyLimit(max).setDeleteUploadedFilesOnEnd(true));
        router.route().order(Integer.MIN_VALUE).failureHandler(rc -> {
            if (rc.statusCode() == 413 && !rc.response().ended()) {
                tooLarge(rc);
            } else {
                rc.next();
            }
        });
    }

    private void tooLarge(RoutingContext rc) {
        Problem problem = new Problem(Problem.type("body-too-large"), "The request body is too large", 413,
                "request bodies may be at most " + max + " bytes; nothing was created", null, null);
        rc.response().setStatusCode(413)
                .putHeader("Content-Type", Problem.MEDIA_TYPE)
                .putHeader("Connection", "close")
                .end(Json.encode(problem));
    }
}
