package dev.sluice.actions;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;

import dev.sluice.actions.reading.BodyRefused;
import dev.sluice.callback.CallbackRefused;
import dev.sluice.logs.LogRotated;
import dev.sluice.record.DispatchConfig;
import dev.sluice.record.RequestRefused;
import dev.sluice.store.StoreException;

/**
 * The one place where a refused request becomes an RFC 9457 problem detail,
 * whichever door it came through: the REST edge sends it as problem+json
 * ({@code api.ProblemMappers}), the MCP server as a tool error. None carries a
 * stack trace, a class name or a secret.
 */
@Singleton
public class Refusals {

    private static final Logger LOG = Logger.getLogger(Refusals.class);

    /** A problem and the headers that go with it over HTTP (Retry-After, WWW-Authenticate). */
    public record Refusal(Problem problem, Map<String, String> headers) {}

    private final DispatchConfig dispatchConfig;

    @Inject
    Refusals(DispatchConfig dispatchConfig) {
        this.dispatchConfig = dispatchConfig;
    }

    /** The refusal for anything a request's handling threw; what is not a refusal is logged as our fault. */
    public Refusal of(Throwable e) {
        if (e instanceof ProblemException p) {
            return new Refusal(p.problem(), p.headers());
        }
        if (e instanceof RequestRefused r) {
            return refused(r);
        }
        if (e instanceof LogRotated l) {
            return new Refusal(
                    new Problem(
                            Problem.type("log-rotated"),
                            "The range was rotated out of the runtime's log",
                            410,
                            l.getMessage(),
                            null,
                            null,
                            l.availableFrom()),
                    Map.of());
        }
        if (e instanceof CallbackRefused c) {
            return plain(409, "not-redeliverable", "There is no result to deliver again", c.getMessage());
        }
        if (e instanceof StoreException s) {
            LOG.errorf("store failure: %s", rootMessage(s));
            return storeUnavailable();
        }
        if (e instanceof JsonProcessingException j) {
            return json(j);
        }
        if (e instanceof BodyRefused b) {
            return body(b);
        }
        return unexpected(e);
    }

    /** A body refused while it was read (ADR 0076): the document 413, a field 422, the decoding budget 429. */
    public Refusal body(BodyRefused e) {
        return switch (e.kind()) {
            case TOO_LARGE -> plain(413, "body-too-large", "The request body is too large", e.detail());
            case INVALID -> of(ProblemException.invalid(List.of(Problem.FieldError.of(e.field(), e.detail()))));
            case BUSY -> retryLater(429, "too-many-bodies", "Too many request bodies are being read", e.detail());
        };
    }

    public Refusal refused(RequestRefused e) {
        return switch (e.reason()) {
            case NOT_FOUND -> plain(404, "not-found", "Dispatch not found", e.getMessage());
            case ID_CONFLICT -> plain(409, "id-conflict", "The id belongs to a different request", e.getMessage());
            case IMAGE_NOT_ALLOWED ->
                plain(403, "image-not-allowed", "The image may not be dispatched", e.getMessage());
            case AT_CAPACITY -> retryLater(429, "at-capacity", "The worker is at capacity", e.getMessage());
            case TENANT_AT_CAPACITY ->
                retryLater(429, "tenant-at-capacity", "The tenant is at capacity", e.getMessage());
            case ENGINE_UNAVAILABLE ->
                retryLater(503, "engine-unavailable", "The container engine is unavailable", e.getMessage());
            case SHUTTING_DOWN -> retryLater(503, "shutting-down", "The worker is shutting down", e.getMessage());
            case STORE_UNAVAILABLE -> storeUnavailable();
            case LOG_GONE -> plain(410, "log-gone", "The log is no longer available", e.getMessage());
            case LOG_UNMASKABLE -> plain(410, "log-unmaskable", "The log cannot be served masked", e.getMessage());
            case LOG_START_UNKNOWN ->
                plain(409, "log-start-unknown", "Where the runtime's log begins is not known", e.getMessage());
            case ARTIFACT_NOT_FOUND -> plain(404, "not-found", "Artifact not found", e.getMessage());
            case ARTIFACT_GONE -> plain(410, "artifact-gone", "The artifact is no longer kept", e.getMessage());
            case ARTIFACT_ELSEWHERE ->
                plain(421, "artifact-elsewhere", "The artifact is kept by another worker", e.getMessage());
            case TOO_MANY_LOG_READS ->
                retryLater(429, "too-many-log-reads", "Too many log reads at once", e.getMessage());
            case TOO_MANY_WAITS ->
                retryLater(429, "too-many-waits", "Too many calls waiting for their dispatch", e.getMessage());
            case TOO_MANY_RELAYED_READS ->
                retryLater(429, "too-many-relayed-reads", "Too many reads relayed at once", e.getMessage());
            case WORKSPACES_FULL ->
                retryLater(429, "workspaces-full", "No room for another workspace now", e.getMessage());
            case INVALID_CURSOR ->
                of(ProblemException.invalid(List.of(Problem.FieldError.of("after", e.getMessage()))));
        };
    }

    /** A field that is unknown, or of the wrong type: 422 naming it. Unreadable JSON: 400. */
    public Refusal json(JsonProcessingException e) {
        if (e instanceof JsonMappingException m && !m.getPath().isEmpty()) {
            String field = m.getPath().stream()
                    .map(r -> r.getFieldName() != null ? r.getFieldName() : Integer.toString(r.getIndex()))
                    .collect(Collectors.joining("."));
            String detail =
                    e instanceof UnrecognizedPropertyException ? "is not a known field" : "has the wrong type or form";
            return of(ProblemException.invalid(List.of(Problem.FieldError.of(field, detail))));
        }
        if (e instanceof JsonMappingException) {
            return plain(400, "malformed-body", "The body is not a dispatch", "the body must be a JSON object");
        }
        return plain(400, "malformed-body", "The body is not valid JSON", "the body could not be parsed as JSON");
    }

    /** Anything else is our fault: logged with an id the client can quote, and answered without detail. */
    public Refusal unexpected(Throwable e) {
        String id = UUID.randomUUID().toString();
        LOG.errorf(e, "unexpected error %s", id);
        return plain(
                500,
                "internal-error",
                "Internal error",
                "the worker failed to handle this request; quote error id " + id);
    }

    private Refusal storeUnavailable() {
        return retryLater(
                503,
                "store-unavailable",
                "The dispatch store is unavailable",
                "the dispatch store could not be reached; nothing was changed");
    }

    private Refusal retryLater(int status, String type, String title, String detail) {
        String retryAfter =
                Long.toString(Math.max(1, dispatchConfig.retryAfter().toSeconds()));
        return new Refusal(
                new Problem(Problem.type(type), title, status, detail, null, null), Map.of("Retry-After", retryAfter));
    }

    private static Refusal plain(int status, String type, String title, String detail) {
        return new Refusal(new Problem(Problem.type(type), title, status, detail, null, null), Map.of());
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getMessage();
    }
}
