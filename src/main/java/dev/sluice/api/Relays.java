package dev.sluice.api;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.actions.Relay;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/** What the request being served passes on if it is relayed to the replica running its dispatch (ADR 0065). */
@Singleton
class Relays {

    /**
     * Where {@link ApiTokenFilter} marks a request another replica relayed,
     * once its signature verified (ADR 0072): it is answered here.
     */
    static final String RELAYED = "sluice.relayed";

    private final CurrentVertxRequest request;

    @Inject
    Relays(CurrentVertxRequest request) {
        this.request = request;
    }

    Relay current() {
        HttpServerRequest r = request.getCurrent().request();
        return new Relay(
                r.getHeader("Range"),
                r.getHeader("Last-Event-ID"),
                Boolean.TRUE.equals(request.getCurrent().get(RELAYED)));
    }

    /** The response of the request being served, for a body written under a deadline. */
    HttpServerResponse response() {
        return request.getCurrent().response();
    }
}
