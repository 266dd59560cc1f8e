package dev.sluice.api;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.actions.Caller;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;

/** The caller of the request being served, as {@link ApiTokenFilter} found it. */
@Singleton
class Callers {

    private final CurrentVertxRequest request;

    @Inject
    Callers(CurrentVertxRequest request) {
        this.request = request;
    }

    Caller current() {
        Caller caller = request.getCurrent().get(Caller.CONTEXT_KEY);
        if (caller == null) { // the filter runs before every resource: this is a bug, never a client's doing
            throw new IllegalStateException("no caller for this request");
        }
        return caller;
    }
}
