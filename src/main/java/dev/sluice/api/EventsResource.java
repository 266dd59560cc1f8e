package dev.sluice.api;

import java.util.List;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.sluice.actions.EventStreams;
import dev.sluice.actions.Problem;
import dev.sluice.actions.ProblemException;
import dev.sluice.events.MetadataFilter;

/** The state changes of every dispatch, as server-sent events (docs/api.md, section 2.12). */
@Path("/v1/events")
@Tag(name = "Dispatches")
public class EventsResource {

    @Inject
    EventStreams streams;

    @Inject
    Callers callers;

    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @Operation(
            operationId = "streamAllEvents",
            summary = "Follow the state changes of all dispatches",
            description = "Server-sent events: one state event for each state a dispatch on this worker reaches, "
                    + "the end carrying its digest; only those whose metadata has metadataKey (with the value "
                    + "metadataValue, when given). Not resumable (docs/api.md, section 2.12).")
    @APIResponse(
            responseCode = "200",
            description = "An event stream that stays open",
            content = @Content(mediaType = MediaType.SERVER_SENT_EVENTS, schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "422", description = "validation-failed: metadataValue without metadataKey")
    @APIResponse(
            responseCode = "429",
            description = "too-many-streams: sluice.events.max-subscribers, or the tenant's "
                    + "max-subscribers-per-tenant, are open; retry after Retry-After")
    public void events(
            @Parameter(description = "only dispatches whose metadata has this key") @QueryParam("metadataKey")
                    String key,
            @Parameter(
                            description = "only those whose value there is this (a string, or a number or boolean as "
                                    + "it prints)")
                    @QueryParam("metadataValue")
                    String value,
            @Context SseEventSink sink,
            @Context Sse sse) {
        if (value != null && (key == null || key.isEmpty())) {
            throw ProblemException.invalid(
                    List.of(Problem.FieldError.of("metadataKey", "is required with metadataValue")));
        }
        MetadataFilter filter = key == null || key.isEmpty() ? null : new MetadataFilter(key, value);
        streams.followAll(callers.current(), filter, new SseEvents(sink, sse));
    }
}
