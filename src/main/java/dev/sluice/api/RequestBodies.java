package dev.sluice.api;

import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.MessageBodyReader;
import jakarta.ws.rs.ext.Provider;

import dev.sluice.actions.DispatchActions;
import dev.sluice.actions.DispatchRequest;
import dev.sluice.actions.GroupActions;
import dev.sluice.actions.GroupRequest;
import dev.sluice.actions.reading.DecodingBudget;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;

/**
 * POST bodies read by the actions' bounded reader instead of the REST layer's
 * own Jackson reader (ADR 0076): counted as they are parsed, charged to the
 * grant {@link BodyLimit} took for the request, and refused before what they
 * describe is built. An empty body is {@code null}, as before, for the
 * resource to refuse.
 */
abstract class RequestBodies<T> implements MessageBodyReader<T> {

    @Inject
    CurrentVertxRequest request;

    private final Class<T> type;

    RequestBodies(Class<T> type) {
        this.type = type;
    }

    /** Reads {@code body} within the bounds, charged to {@code grant}. */
    abstract T read(InputStream body, DecodingBudget.Grant grant) throws IOException;

    @Override
    public boolean isReadable(Class<?> type, Type generic, Annotation[] annotations, MediaType media) {
        return type == this.type;
    }

    @Override
    public T readFrom(
            Class<T> type,
            Type generic,
            Annotation[] annotations,
            MediaType media,
            MultivaluedMap<String, String> headers,
            InputStream body)
            throws IOException {
        DecodingBudget.Grant grant = request.getCurrent().get(DecodingBudget.CONTEXT_KEY);
        return read(body, grant == null ? DecodingBudget.NONE : grant);
    }

    @Provider
    @Consumes(MediaType.APPLICATION_JSON)
    public static class Dispatches extends RequestBodies<DispatchRequest> {

        @Inject
        DispatchActions actions;

        public Dispatches() {
            super(DispatchRequest.class);
        }

        @Override
        DispatchRequest read(InputStream body, DecodingBudget.Grant grant) throws IOException {
            return actions.read(body, grant);
        }
    }

    @Provider
    @Consumes(MediaType.APPLICATION_JSON)
    public static class Groups extends RequestBodies<GroupRequest> {

        @Inject
        GroupActions actions;

        public Groups() {
            super(GroupRequest.class);
        }

        @Override
        GroupRequest read(InputStream body, DecodingBudget.Grant grant) throws IOException {
            return actions.read(body, grant);
        }
    }
}
