package dev.sluice.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

import jakarta.inject.Inject;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

import org.jboss.resteasy.reactive.PathPart;

import dev.sluice.actions.Caller;
import dev.sluice.actions.DispatchActions;
import dev.sluice.actions.DispatchArtifacts;
import dev.sluice.actions.DispatchListView;
import dev.sluice.actions.DispatchRequest;
import dev.sluice.actions.DispatchView;
import dev.sluice.actions.EventStreams;
import dev.sluice.actions.OwnerAnswer;
import dev.sluice.actions.OwnerReads;
import dev.sluice.actions.ProblemException;
import dev.sluice.actions.Relay;
import dev.sluice.io.LogRange;
import dev.sluice.record.RequestRefused;
import io.opentelemetry.context.Scope;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/** The v1 dispatch API (docs/api.md, section 2); its routes and answers are declared by {@link DispatchApi}. */
public class DispatchResource implements DispatchApi {

    @Inject
    DispatchActions actions;

    @Inject
    Callers callers;

    @Inject
    DispatchArtifacts artifacts;

    @Inject
    EventStreams streams;

    @Inject
    LogWrites logWrites;

    @Inject
    OwnerReads owners;

    @Inject
    Relays relays;

    @Inject
    IncomingTraces traces;

    @Inject
    RelayedEvents relayed;

    @Override
    public Response create(DispatchRequest request) {
        if (request == null) {
            throw new ProblemException(
                    400, "body-required", "A request body is required", "POST a JSON object with at least an image");
        }
        DispatchActions.Accepted accepted;
        try (Scope trace = traces.enter()) {
            accepted = actions.create(callers.current(), request);
        }
        DispatchView view = actions.view(accepted.dispatch());
        return Response.accepted(view)
                .location(URI.create(view.links().self()))
                .header(REPLAYED, accepted.created() ? null : "true")
                .build();
    }

    @Override
    public DispatchView get(String id) {
        return actions.view(actions.get(callers.current(), id));
    }

    @Override
    public Response list(String status, String limit, String after) {
        DispatchListView page = actions.list(callers.current(), status, limit, after);
        Response.ResponseBuilder response = Response.ok(page);
        if (page.next() != null) {
            response.header("Link", "<" + page.next() + ">; rel=\"next\"");
        }
        return response.build();
    }

    @Override
    public Response cancel(String id) {
        DispatchActions.Cancelled cancelled = actions.cancel(callers.current(), id);
        return Response.status(cancelled.stopping() ? Response.Status.ACCEPTED : Response.Status.OK)
                .entity(actions.view(cancelled.dispatch()))
                .build();
    }

    @Override
    public Response redeliver(String id) {
        return Response.accepted(actions.view(actions.redeliver(callers.current(), id)))
                .build();
    }

    @Override
    public Response digest(String id) {
        return Response.ok(actions.digest(callers.current(), id), MediaType.APPLICATION_JSON)
                .build();
    }

    /**
     * The range's length and end are counted first; its bytes are then written
     * as the runtime's log sends them, never held whole (ADR 0054).
     */
    @Override
    public Response logs(String id, String stream, String offset, String limit, HttpServerRequest request) {
        LogRange range = actions.log(callers.current(), id, stream, offset, limit, relays.current());
        StreamingOutput body = out -> logWrites.write(range, out, request.response());
        return Response.ok(body, MediaType.APPLICATION_OCTET_STREAM)
                .header("Content-Length", range.length())
                .header("Sluice-Log-Offset", range.offset())
                .header("Sluice-Log-Next-Offset", range.offset() + range.length())
                .header("Sluice-Log-End", range.endOfLog())
                .build();
    }

    @Override
    public void events(String id, String lastEventId, SseEventSink sink, Sse sse) {
        Caller caller = callers.current();
        Relay relay = relays.current();
        Optional<OwnerAnswer> owner = owners.events(caller, id, relay);
        if (owner.isPresent()) {
            if (!relayed.relay(
                    owner.get(),
                    new SseEvents(sink, sse),
                    after -> owners.events(caller, id, relay.after(after)),
                    lastEventId)) {
                close(owner.get());
                throw streams.full();
            }
            return;
        }
        streams.follow(caller, id, SseEvents.lastEventId(lastEventId), new SseEvents(sink, sse));
    }

    /**
     * Streamed from the file, never read into memory. What an agent wrote is
     * not to be run by a browser on this origin: it is sent as an attachment,
     * in a sandbox, with its type not to be sniffed.
     */
    @Override
    public Response artifact(String id, String name, String range) {
        Optional<OwnerAnswer> owner = owners.artifact(callers.current(), id, encoded(name), relays.current());
        if (owner.isPresent()) {
            return relayedArtifact(owner.get());
        }
        Path file = artifacts.file(callers.current(), id, name);
        long size;
        String type;
        try {
            size = Files.size(file);
            type = DispatchArtifacts.mediaType(name, file);
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

    /** The owner's answer as it gave it (ADR 0065), its body written as it comes, each write under a deadline. */
    private Response relayedArtifact(OwnerAnswer served) {
        long length = Long.parseLong(served.headers().getOrDefault("content-length", "-1"));
        LogRange body = new LogRange(0, Math.max(0, length), true, out -> {
                    try (InputStream in = served.body()) {
                        in.transferTo(out);
                    }
                })
                .whenClosed(() -> close(served));
        HttpServerResponse response = relays.response();
        Response.ResponseBuilder answer =
                Response.status(served.status()).entity((StreamingOutput) out -> logWrites.write(body, out, response));
        served.headers().forEach(answer::header);
        return answer.build();
    }

    /** The name as a path: each segment percent-encoded, slashes kept (docs/api.md, section 2.13). */
    private static String encoded(String name) {
        StringBuilder path = new StringBuilder();
        for (String segment : name.split("/", -1)) {
            path.append(path.length() == 0 ? "" : "/")
                    .append(URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20"));
        }
        return path.toString();
    }

    private static void close(OwnerAnswer served) {
        try {
            served.close();
        } catch (IOException e) {
            // the owner's connection is let go either way
        }
    }
}
