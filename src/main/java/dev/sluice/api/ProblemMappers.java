package dev.sluice.api;

import java.util.Map;

import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

import dev.sluice.actions.Problem;
import dev.sluice.actions.ProblemException;
import dev.sluice.actions.Refusals;
import dev.sluice.actions.reading.BodyRefused;

/**
 * Refusals at the REST edge, sent as RFC 9457 problem+json; which problem
 * each is, {@link Refusals} decides.
 */
public class ProblemMappers {

    @Inject
    Refusals refusals;

    @ServerExceptionMapper
    public Response problem(ProblemException e) {
        return respond(refusals.of(e));
    }

    /** A body refused while it was read (ADR 0076): 413, 422 naming the field, or 429. */
    @ServerExceptionMapper
    public Response body(BodyRefused e) {
        return respond(refusals.body(e));
    }

    /** Unknown fields and wrong types; more specific than Quarkus's own mapper for them, so this one answers. */
    @ServerExceptionMapper
    public Response mismatched(MismatchedInputException e) {
        return json(e);
    }

    /** A field that is unknown, or of the wrong type: 422 naming it. Unreadable JSON: 400. */
    @ServerExceptionMapper
    public Response json(JsonProcessingException e) {
        return respond(refusals.json(e));
    }

    /** JAX-RS's own refusals (404, 405, 406, 415...), as problem details. */
    @ServerExceptionMapper
    public Response web(WebApplicationException e) {
        if (e.getCause() instanceof JsonProcessingException json) {
            return json(json);
        }
        int status = e.getResponse().getStatus();
        if (status >= 500) {
            return unexpected(e);
        }
        Response.Status known = Response.Status.fromStatusCode(status);
        String title = known == null ? "Request refused" : known.getReasonPhrase();
        return respond(new Problem(Problem.type("http-" + status), title, status, title, null, null), Map.of());
    }

    /**
     * The refusals of the layers below (an unknown dispatch, a rotated log, a
     * result not to deliver again, the store unavailable), as {@link Refusals}
     * answers them; anything else is our fault: logged with an id the client
     * can quote, and answered without detail.
     */
    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        return respond(refusals.of(e));
    }

    private static Response respond(Refusals.Refusal refusal) {
        return respond(refusal.problem(), refusal.headers());
    }

    static Response respond(Problem problem, Map<String, String> headers) {
        Response.ResponseBuilder response =
                Response.status(problem.status()).type(Problem.MEDIA_TYPE).entity(problem);
        headers.forEach(response::header);
        return response.build();
    }
}
