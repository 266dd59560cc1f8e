package dev.sluice.api;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.trace.Tracing;
import io.opentelemetry.context.Scope;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.core.http.HttpServerRequest;

/** The trace context of the request being served (its {@code traceparent}), made current for what it creates. */
@Singleton
class IncomingTraces {

    private final CurrentVertxRequest request;
    private final Tracing tracing;

    @Inject
    IncomingTraces(CurrentVertxRequest request, Tracing tracing) {
        this.request = request;
        this.tracing = tracing;
    }

    /** Until closed, dispatches accepted on this thread continue the request's trace (ADR 0069). */
    Scope enter() {
        HttpServerRequest http = request.getCurrent().request();
        return tracing.enter(http.getHeader(Tracing.TRACEPARENT), http.getHeader(Tracing.TRACESTATE));
    }
}
