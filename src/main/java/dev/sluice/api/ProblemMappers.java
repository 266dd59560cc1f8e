package dev.sluice.api;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;

import dev.sluice.callback.CallbackRefused;
import dev.sluice.dispatch.DispatchConfig;
import dev.sluice.dispatch.LogRotated;
import dev.sluice.dispatch.RequestRefused;
import dev.sluice.store.StoreException;

/**
 * The one place where refusals become RFC 9457 problem details. Every response
 * names what was wrong in words for the client; none carries a stack trace, a
 * class name or a secret.
 */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    @Inject
    DispatchConfig dispatchConfig;

    @ServerExceptionMapper
    public Response problem(ProblemException e) {
        return respond(e.problem(), e.headers());
    }

    @ServerExceptionMapper
    public Response refused(RequestRefused e) {
        String retryAfter =
                Long.toString(Math.max(1, dispatchConfig.retryAfter().toSeconds()));
        return switch (e.reason()) {
            case NOT_FOUND -> respond(404, "not-found", "Dispatch not found", e);
            case ID_CONFLICT -> respond(409, "id-conflict", "The id belongs to a different request", e);
            case IMAGE_NOT_ALLOWED -> respond(403, "image-not-allowed", "The image may not be dispatched", e);
            case AT_CAPACITY ->
                respond(
                        new Problem(
                                Problem.type("at-capacity"),
                                "The worker is at capacity",
                                429,
                                e.getMessage(),
                                null,
                                null),
                        Map.of("Retry-After", retryAfter));
            case ENGINE_UNAVAILABLE ->
                respond(
                        new Problem(
                                Problem.type("engine-unavailable"),
                                "The container engine is unavailable",
                                503,
                                e.getMessage(),
                                null,
                                null),
                        Map.of("Retry-After", retryAfter));
            case SHUTTING_DOWN ->
                respond(
                        new Problem(
                                Problem.type("shutting-down"),
                                "The worker is shutting down",
                                503,
                                e.getMessage(),
                                null,
                                null),
                        Map.of("Retry-After", retryAfter));
            case STORE_UNAVAILABLE -> storeUnavailable(retryAfter);
            case LOG_GONE -> respond(410, "log-gone", "The log is no longer available", e);
            case LOG_UNMASKABLE -> respond(410, "log-unmaskable", "The log cannot be served masked", e);
            case LOG_START_UNKNOWN ->
                respond(409, "log-start-unknown", "Where the runtime's log begins is not known", e);
            case ARTIFACT_NOT_FOUND -> respond(404, "not-found", "Artifact not found", e);
            case ARTIFACT_GONE -> respond(410, "artifact-gone", "The artifact is no longer kept", e);
            case ARTIFACT_ELSEWHERE -> respond(421, "artifact-elsewhere", "The artifact is kept by another worker", e);
            case INVALID_CURSOR ->
                problem(ProblemException.invalid(List.of(Problem.FieldError.of("after", e.getMessage()))));
        };
    }

    @ServerExceptionMapper
    public Response logRotated(LogRotated e) {
        return respond(
                new Problem(
                        Problem.type("log-rotated"),
                        "The range was rotated out of the runtime's log",
                        410,
                        e.getMessage(),
                        null,
                        null,
                        e.availableFrom()),
                Map.of());
    }

    @ServerExceptionMapper
    public Response callbackRefused(CallbackRefused e) {
        return respond(409, "not-redeliverable", "There is no result to deliver again", e);
    }

    @ServerExceptionMapper
    public Response store(StoreException e) {
        LOG.errorf("store failure: %s", rootMessage(e));
        return storeUnavailable(
                Long.toString(Math.max(1, dispatchConfig.retryAfter().toSeconds())));
    }

    private static Response storeUnavailable(String retryAfter) {
        return respond(
                new Problem(
                        Problem.type("store-unavailable"),
                        "The dispatch store is unavailable",
                        503,
                        "the dispatch store could not be reached; nothing was changed",
                        null,
                        null),
                Map.of("Retry-After", retryAfter));
    }

    /** Unknown fields and wrong types; more specific than Quarkus's own mapper for them, so this one answers. */
    @ServerExceptionMapper
    public Response mismatched(MismatchedInputException e) {
        return json(e);
    }

    /** A field that is unknown, or of the wrong type: 422 naming it. Unreadable JSON: 400. */
    @ServerExceptionMapper
    public Response json(JsonProcessingException e) {
        if (e instanceof JsonMappingException m && !m.getPath().isEmpty()) {
            String field = m.getPath().stream()
                    .map(r -> r.getFieldName() != null ? r.getFieldName() : Integer.toString(r.getIndex()))
                    .collect(Collectors.joining("."));
            String detail =
                    e instanceof UnrecognizedPropertyException ? "is not a known field" : "has the wrong type or form";
            return problem(ProblemException.invalid(List.of(Problem.FieldError.of(field, detail))));
        }
        if (e instanceof JsonMappingException) {
            return respond(
                    new Problem(
                            Problem.type("malformed-body"),
                            "The body is not a dispatch",
                            400,
                            "the body must be a JSON object",
                            null,
                            null),
                    Map.of());
        }
        return respond(
                new Problem(
                        Problem.type("malformed-body"),
                        "The body is not valid JSON",
                        400,
                        "the body could not be parsed as JSON",
                        null,
                        null),
                Map.of());
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

    /** Anything else is our fault: logged with an id the client can quote, and answered without detail. */
    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        String id = UUID.randomUUID().toString();
        LOG.errorf(e, "unexpected error %s", id);
        return respond(
                new Problem(
                        Problem.type("internal-error"),
                        "Internal error",
                        500,
                        "the worker failed to handle this request; quote error id " + id,
                        null,
                        null),
                Map.of());
    }

    private static Response respond(int status, String type, String title, RuntimeException e) {
        return respond(new Problem(Problem.type(type), title, status, e.getMessage(), null, null), Map.of());
    }

    static Response respond(Problem problem, Map<String, String> headers) {
        Response.ResponseBuilder response =
                Response.status(problem.status()).type(Problem.MEDIA_TYPE).entity(problem);
        headers.forEach(response::header);
        return response.build();
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getMessage();
    }
}
