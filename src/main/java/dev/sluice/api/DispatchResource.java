package dev.sluice.api;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

import org.jboss.resteasy.reactive.PathPart;

import dev.sluice.artifact.MediaTypes;
import dev.sluice.callback.CallbackService;
import dev.sluice.callback.CallbackStore;
import dev.sluice.dispatch.Cancellation;
import dev.sluice.dispatch.Dispatch;
import dev.sluice.dispatch.DispatchArtifacts;
import dev.sluice.dispatch.DispatchConfig;
import dev.sluice.dispatch.DispatchIntake;
import dev.sluice.dispatch.DispatchLinks;
import dev.sluice.dispatch.DispatchLogs;
import dev.sluice.dispatch.DispatchQueries;
import dev.sluice.dispatch.DispatchSpec;
import dev.sluice.dispatch.DispatchStore;
import dev.sluice.dispatch.LogRange;
import dev.sluice.dispatch.RequestRefused;
import dev.sluice.events.EventHub;

/** The v1 dispatch API (docs/api.md, section 2); its routes and answers are declared by {@link DispatchApi}. */
public class DispatchResource implements DispatchApi {

    @Inject
    DispatchIntake intake;

    @Inject
    DispatchQueries queries;

    @Inject
    Cancellation cancellation;

    @Inject
    DispatchLogs logs;

    @Inject
    DispatchArtifacts artifacts;

    @Inject
    DispatchRequestValidator validator;

    @Inject
    Fingerprint fingerprint;

    @Inject
    ApiConfig config;

    @Inject
    CallbackService callbacks;

    @Inject
    EventHub events;

    @Inject
    DispatchConfig limits;

    @Override
    public Response create(DispatchRequest request) {
        if (request == null) {
            throw new ProblemException(
                    400, "body-required", "A request body is required", "POST a JSON object with at least an image");
        }
        DispatchSpec spec = validator.validate(request);
        DispatchIntake.Accepted accepted = intake.accept(request.id(), spec, fingerprint.of(request));
        Dispatch d = accepted.dispatch();
        return Response.accepted(view(d))
                .location(URI.create(DispatchLinks.self(d.id())))
                .header(REPLAYED, accepted.created() ? null : "true")
                .build();
    }

    @Override
    public DispatchView get(String id) {
        return view(queries.get(id));
    }

    private DispatchView view(Dispatch d) {
        return DispatchView.of(d, d.callbackUrl() == null ? Optional.empty() : callbacks.state(d.id()));
    }

    @Override
    public Response list(String status, String limit, String after) {
        Dispatch.Status wanted = status == null || status.isEmpty() ? null : parseStatus(status);
        int size = limit == null || limit.isEmpty()
                ? config.defaultPageSize()
                : QueryParams.intIn("limit", limit, 1, config.maxPageSize());
        if (after != null && !DispatchRequestValidator.ID.matcher(after).matches()) {
            throw ProblemException.invalid(List.of(Problem.FieldError.of("after", "is not a dispatch id")));
        }
        DispatchStore.Page page = queries.list(wanted, size, after);
        Map<String, CallbackStore.State> deliveries = callbacks.states(page.items().stream()
                .filter(d -> d.callbackUrl() != null)
                .map(Dispatch::id)
                .toList());
        String next = page.nextAfter() == null
                ? null
                : "/v1/dispatches?" + (wanted == null ? "" : "status=" + wanted.wire() + "&") + "limit=" + size
                        + "&after=" + page.nextAfter();
        Response.ResponseBuilder response = Response.ok(new DispatchListView(
                page.items().stream()
                        .map(d -> DispatchListView.Item.of(d, Optional.ofNullable(deliveries.get(d.id()))))
                        .toList(),
                next));
        if (next != null) {
            response.header("Link", "<" + next + ">; rel=\"next\"");
        }
        return response.build();
    }

    private static Dispatch.Status parseStatus(String status) {
        try {
            return Dispatch.Status.fromWire(status);
        } catch (IllegalArgumentException e) {
            throw ProblemException.invalid(List.of(Problem.FieldError.of(
                    "status",
                    "must be one of queued, starting, " + "running, succeeded, failed, timed_out, cancelled, error")));
        }
    }

    @Override
    public Response cancel(String id) {
        Cancellation.Cancelled cancelled = cancellation.cancel(id);
        return Response.status(cancelled.stopping() ? Response.Status.ACCEPTED : Response.Status.OK)
                .entity(view(cancelled.dispatch()))
                .build();
    }

    @Override
    public Response redeliver(String id) {
        callbacks.redeliver(queries.get(id));
        return Response.accepted(view(queries.get(id))).build();
    }

    @Override
    public Response digest(String id) {
        return Response.ok(queries.digest(id), MediaType.APPLICATION_JSON).build();
    }

    @Override
    public Response logs(String id, String stream, String offset, String limit) {
        if (!stream.equals("stdout") && !stream.equals("stderr")) {
            throw new ProblemException(404, "not-found", "No such stream", "streams are stdout and stderr");
        }
        long from =
                offset == null || offset.isEmpty() ? 0 : QueryParams.longIn("offset", offset, 0, Long.MAX_VALUE / 2);
        int max = (int) config.maxLogRange().asLongValue();
        int size = limit == null || limit.isEmpty()
                ? (int) Math.min(max, config.defaultLogRange().asLongValue())
                : QueryParams.intIn("limit", limit, 1, max);
        LogRange range = logs.read(id, stream.equals("stdout"), from, size);
        return Response.ok(range.bytes(), MediaType.APPLICATION_OCTET_STREAM)
                .header("Sluice-Log-Offset", range.offset())
                .header("Sluice-Log-Next-Offset", range.offset() + range.bytes().length)
                .header("Sluice-Log-End", range.endOfLog())
                .build();
    }

    @Override
    public void events(String id, String lastEventId, SseEventSink sink, Sse sse) {
        if (!events.subscribe(id, SseEvents.lastEventId(lastEventId), new SseEvents(sink, sse))) {
            throw SseEvents.tooMany(limits.retryAfter());
        }
    }

    /**
     * Streamed from the file, never read into memory. What an agent wrote is
     * not to be run by a browser on this origin: it is sent as an attachment,
     * in a sandbox, with its type not to be sniffed.
     */
    @Override
    public Response artifact(String id, String name, String range) {
        Path file = artifacts.file(id, name);
        long size;
        String type;
        try {
            size = Files.size(file);
            type = MediaTypes.of(name, file);
        } catch (NoSuchFileException e) { // swept between the look-up and now
            throw new RequestRefused(
                    RequestRefused.Reason.ARTIFACT_GONE, "the artifacts of dispatch " + id + " were just removed");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Optional<ByteRange> part = ByteRange.of(range, size);
        Response.ResponseBuilder response = part.map(r -> Response.status(206)
                        .entity(new PathPart(file, r.first(), r.length()))
                        .header("Content-Range", r.contentRange(size)))
                .orElseGet(() -> Response.ok(new PathPart(file, 0, size)));
        String base = name.substring(name.lastIndexOf('/') + 1);
        return response.type(type)
                .header("Accept-Ranges", "bytes")
                .header("X-Content-Type-Options", "nosniff")
                .header("Content-Security-Policy", "sandbox")
                .header(
                        "Content-Disposition",
                        "attachment; filename*=UTF-8''"
                                + URLEncoder.encode(base, StandardCharsets.UTF_8)
                                        .replace("+", "%20"))
                .build();
    }
}
