package dev.sluice.api;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.callbacks.Callback;
import org.eclipse.microprofile.openapi.annotations.callbacks.CallbackOperation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.sluice.actions.DispatchListView;
import dev.sluice.actions.DispatchRequest;
import dev.sluice.actions.DispatchRequestValidator;
import dev.sluice.actions.DispatchView;
import dev.sluice.record.DigestDocument;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchResult;
import io.vertx.core.http.HttpServerRequest;

/**
 * The v1 dispatch API as tools see it (docs/api.md, section 2): routes,
 * parameters and answers, from which the OpenAPI document is made
 * (docs/openapi.yaml, ADR 0021). {@link DispatchResource} implements it;
 * {@link ApiDocument} adds what every refusal shares.
 */
@Path("/v1/dispatches")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Dispatches", description = "Run agents in containers and read their bounded results")
public interface DispatchApi {

    /** Header on a POST that returned an existing dispatch for a repeated request. */
    String REPLAYED = "Idempotent-Replayed";

    /** Accepts a dispatch: 202 with the record; a repeated request with the same id and body gets the same record. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(
            operationId = "createDispatch",
            summary = "Accept a dispatch",
            description = "Stores the dispatch and queues it; the record is committed before the answer. A repeat "
                    + "of a request with the same id and content is a replay: the record as it is now, with "
                    + "Idempotent-Replayed: true. The checks run in the order of docs/api.md, section 2.1, and the "
                    + "first that fails answers; a refused request changes nothing.")
    @RequestBody(
            required = true,
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = DispatchRequest.class)))
    @APIResponse(
            responseCode = "202",
            description = "Accepted (or replayed): the record",
            headers = {
                @Header(
                        name = "Location",
                        description = "the record's address",
                        schema = @Schema(type = SchemaType.STRING)),
                @Header(
                        name = REPLAYED,
                        description = "true when the request repeated an earlier one",
                        schema = @Schema(type = SchemaType.STRING, enumeration = "true"))
            },
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = DispatchView.class)))
    @APIResponse(
            responseCode = "403",
            description = "image-not-allowed: the image matches no pattern of sluice.images.allowed")
    @APIResponse(responseCode = "409", description = "id-conflict: the id names a dispatch with a different request")
    @APIResponse(
            responseCode = "422",
            description = "validation-failed: errors names every bad field; a field past a bound the body is read "
                    + "within (command, env, secrets, metadata, output.project, workspace.files, nesting) is "
                    + "named alone, as soon as it is read")
    @APIResponse(
            responseCode = "429",
            description = "tenant-at-capacity: the caller's tenant holds every place its limits give it; "
                    + "at-capacity: every run slot and queue place of the worker is taken; workspaces-full: the "
                    + "workspace would take the tenant's kept workspaces past sluice.workspace.max-kept-bytes-per-tenant, "
                    + "or the worker's past max-kept-bytes (ADR 0073); too-many-bodies: the "
                    + "worker, or the caller's tenant, is reading as many request bytes as "
                    + "sluice.api.max-decoding-bytes (-per-tenant) allows (ADR 0076)")
    @APIResponse(
            responseCode = "503",
            description = "shutting-down, engine-unavailable or store-unavailable: nothing was accepted")
    @Callback(
            name = "result",
            callbackUrlExpression = "{$request.body#/callbackUrl}",
            operations =
                    @CallbackOperation(
                            method = "post",
                            summary = "The dispatch's result, signed for its tenant",
                            description = "The stored DispatchResult (callbackMode full) or the digest (callbackMode "
                                    + "digest), signed the Standard Webhooks way with its tenant's secrets; a "
                                    + "receiver checks the signature, then tenant and dispatchId (docs/api.md, "
                                    + "sections 8.2 to 8.10).",
                            requestBody =
                                    @RequestBody(
                                            required = true,
                                            content =
                                                    @Content(
                                                            mediaType = MediaType.APPLICATION_JSON,
                                                            schema =
                                                                    @Schema(
                                                                            oneOf = {
                                                                                DispatchResult.class,
                                                                                DigestDocument.class
                                                                            })))))
    @Parameter(
            name = "traceparent",
            in = ParameterIn.HEADER,
            description = "W3C Trace Context: the dispatch's spans continue this trace, its record's traceId "
                    + "names it, and each callback attempt carries it on (docs/api.md, section 2.1.4); a "
                    + "malformed one is ignored",
            schema =
                    @Schema(
                            type = SchemaType.STRING,
                            examples = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
    Response create(DispatchRequest request);

    @GET
    @Path("{id}")
    @Operation(
            operationId = "getDispatch",
            summary = "Read a dispatch",
            description = "The record, with the result once it is terminal.")
    @APIResponse(
            responseCode = "200",
            description = "The record",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = DispatchView.class)))
    DispatchView get(@Parameter(ref = ApiDocument.DISPATCH_ID) @PathParam("id") String id);

    /** Newest first; {@code after} is the id of the last dispatch of the previous page. */
    @GET
    @Operation(
            operationId = "listDispatches",
            summary = "List dispatches",
            description = "Newest first (in the order they were accepted), one page at a time, each item with a "
                    + "summary in place of the result. Follow next (or Link) for the next page; dispatches accepted "
                    + "after the first page never appear in later pages of the same walk.")
    @APIResponse(
            responseCode = "200",
            description = "A page",
            headers =
                    @Header(
                            name = "Link",
                            description = "</v1/dispatches?...>; rel=\"next\" when there is a next page",
                            schema = @Schema(type = SchemaType.STRING)),
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = DispatchListView.class)))
    @APIResponse(
            responseCode = "422",
            description = "validation-failed: a query parameter is invalid, or after names no existing dispatch")
    Response list(
            @Parameter(
                            description = "only dispatches in this status",
                            schema = @Schema(implementation = Dispatch.Status.class))
                    @QueryParam("status")
                    String status,
            @Parameter(
                            description = "page size: sluice.api.default-page-size (20) by default, at most "
                                    + "sluice.api.max-page-size (100)",
                            schema = @Schema(type = SchemaType.INTEGER, format = "int32", minimum = "1"))
                    @QueryParam("limit")
                    String limit,
            @Parameter(
                            description = "the id of the last item of the previous page",
                            schema = @Schema(type = SchemaType.STRING, pattern = DispatchRequestValidator.ID_PATTERN))
                    @QueryParam("after")
                    String after);

    /** Cancels; idempotent. 202 while the container is being stopped, 200 once the dispatch is terminal. */
    @DELETE
    @Path("{id}")
    @Operation(
            operationId = "cancelDispatch",
            summary = "Cancel a dispatch",
            description = "Idempotent. A queued dispatch ends at once as cancelled; a starting or running one gets "
                    + "SIGTERM, then SIGKILL after sluice.dispatch.stop-grace, and ends as cancelled: poll the "
                    + "record for it. A terminal one is left as it is.")
    @APIResponse(
            responseCode = "200",
            description = "Terminal: the record",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = DispatchView.class)))
    @APIResponse(
            responseCode = "202",
            description = "Being stopped: the record as it is",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = DispatchView.class)))
    Response cancel(@Parameter(ref = ApiDocument.DISPATCH_ID) @PathParam("id") String id);

    /** Sends the stored result to the callback URL again, with the same webhook-id and body. */
    @POST
    @Path("{id}/redeliver")
    @Operation(
            operationId = "redeliverResult",
            summary = "Deliver the result again",
            description = "Starts a new round of attempts now, whatever the delivery state, with the same "
                    + "webhook-id and body as before (docs/api.md, section 2.6).")
    @APIResponse(
            responseCode = "202",
            description = "A new round started: the record",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = DispatchView.class)))
    @APIResponse(
            responseCode = "409",
            description = "not-redeliverable: no callbackUrl, not terminal yet, or no delivery was recorded")
    Response redeliver(@Parameter(ref = ApiDocument.DISPATCH_ID) @PathParam("id") String id);

    /** The dispatch in at most 512 bytes of JSON: what a parent keeps of each of many dispatches. */
    @GET
    @Path("{id}/digest")
    @Operation(
            operationId = "getDigest",
            summary = "Read a dispatch's digest",
            description = "At most 512 bytes of JSON whatever the agent reported: status, exit code, the agent's "
                    + "verdict, confidence and a short summary, the streams' counts and links (docs/api.md, "
                    + "sections 2.8 and 7.6).")
    @APIResponse(
            responseCode = "200",
            description = "The digest",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = DigestDocument.class)))
    Response digest(@Parameter(ref = ApiDocument.DISPATCH_ID) @PathParam("id") String id);

    /**
     * A byte range of the full stream, read back from the container runtime and
     * masked. 410 once the container is gone.
     */
    @GET
    @Path("{id}/logs/{stream}")
    @Produces({MediaType.APPLICATION_OCTET_STREAM, MediaType.APPLICATION_JSON})
    @Operation(
            operationId = "readLog",
            summary = "Read a byte range of a full stream",
            description = "Read back from the container runtime's log whatever the caps kept, and masked. "
                    + "Offsets are absolute stream offsets; the result's logs.availableFrom says from which one "
                    + "the runtime still holds each stream. Repeat with offset set to Sluice-Log-Next-Offset "
                    + "until Sluice-Log-End is true (docs/api.md, section 2.5).")
    @APIResponse(
            responseCode = "200",
            description = "At most limit bytes from offset",
            headers = {
                @Header(
                        name = "Sluice-Log-Offset",
                        description = "the offset asked for, an absolute stream offset",
                        schema = @Schema(type = SchemaType.INTEGER, format = "int64")),
                @Header(
                        name = "Sluice-Log-Next-Offset",
                        description = "where the next range starts",
                        schema = @Schema(type = SchemaType.INTEGER, format = "int64")),
                @Header(
                        name = "Sluice-Log-End",
                        description = "whether the range reaches the end of what the runtime holds now",
                        schema = @Schema(type = SchemaType.BOOLEAN))
            },
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_OCTET_STREAM,
                            schema = @Schema(type = SchemaType.STRING, format = "binary")))
    @APIResponse(responseCode = "404", description = "not-found: no dispatch has this id, or no such stream")
    @APIResponse(
            responseCode = "409",
            description = "log-start-unknown: the dispatch runs and its log may already have rotated, or its "
                    + "result could not tell where the runtime's copy begins")
    @APIResponse(
            responseCode = "410",
            description = "log-gone (no container, or it was removed), log-unmaskable (this worker no longer "
                    + "holds the dispatch's secrets) or log-rotated (the range starts before the first byte the "
                    + "runtime still holds, given as availableFrom)")
    @APIResponse(responseCode = "422", description = "validation-failed: offset or limit is out of bounds")
    @APIResponse(
            responseCode = "429",
            description =
                    "too-many-log-reads: sluice.api.max-log-reads ranges, or the tenant's max-log-reads-per-tenant, "
                            + "are being read; too-many-relayed-reads: sluice.api.max-relayed-reads reads, or the "
                            + "tenant's max-relayed-reads-per-tenant, are relayed to other replicas (ADR 0073); retry "
                            + "after Retry-After")
    @APIResponse(
            responseCode = "503",
            description = "engine-unavailable, store-unavailable, or owner-unreachable (the replica running the "
                    + "dispatch, to which the read was relayed, did not answer in time; ADR 0065)")
    Response logs(
            @Parameter(ref = ApiDocument.DISPATCH_ID) @PathParam("id") String id,
            @Parameter(
                            description = "the stream",
                            schema =
                                    @Schema(
                                            type = SchemaType.STRING,
                                            enumeration = {"stdout", "stderr"}))
                    @PathParam("stream")
                    String stream,
            @Parameter(
                            description = "the first byte; 0 by default",
                            schema =
                                    @Schema(
                                            type = SchemaType.INTEGER,
                                            format = "int64",
                                            minimum = "0",
                                            maximum = "4611686018427387903"))
                    @QueryParam("offset")
                    String offset,
            @Parameter(
                            description = "the most bytes: sluice.api.default-log-range (1 MiB) by default, at most "
                                    + "sluice.api.max-log-range (16 MiB)",
                            schema = @Schema(type = SchemaType.INTEGER, format = "int32", minimum = "1"))
                    @QueryParam("limit")
                    String limit,
            @Context HttpServerRequest request);

    /** The dispatch's states and live output as server-sent events, until it ends. */
    @GET
    @Path("{id}/events")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @Operation(
            operationId = "streamDispatchEvents",
            summary = "Follow a dispatch as it runs",
            description = "Server-sent events: state events (queued, starting, running, and the end with the "
                    + "digest), resumable with Last-Event-ID, and a live tail of stdout and stderr, masked, at most "
                    + "sluice.events.max-rate bytes a second, with gap events for what was missed. A dispatch that "
                    + "has ended gets its end at once, and the stream closes after it (docs/api.md, section 2.11).")
    @APIResponse(
            responseCode = "200",
            description = "An event stream, open until the dispatch ends",
            content = @Content(mediaType = MediaType.SERVER_SENT_EVENTS, schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(
            responseCode = "429",
            description = "too-many-streams: sluice.events.max-subscribers, or the tenant's "
                    + "max-subscribers-per-tenant, are open; too-many-relayed-reads: sluice.api.max-relayed-reads "
                    + "reads, or the tenant's max-relayed-reads-per-tenant, are relayed to other replicas (ADR 0073); "
                    + "retry after Retry-After")
    @APIResponse(
            responseCode = "503",
            description = "store-unavailable, or owner-unreachable (the replica running the dispatch, to which "
                    + "the stream was relayed, did not answer in time; ADR 0065)")
    void events(
            @Parameter(ref = ApiDocument.DISPATCH_ID) @PathParam("id") String id,
            @Parameter(
                            description = "the id of the last state event seen: only later states are sent again",
                            schema = @Schema(type = SchemaType.INTEGER, minimum = "0", maximum = "4"))
                    @HeaderParam("Last-Event-ID")
                    String lastEventId,
            @Context SseEventSink sink,
            @Context Sse sse);
    /** An artifact the dispatch's agent left, streamed from the worker's disk, whole or by byte range. */
    @GET
    @Path("{id}/artifacts/{name: .+}")
    @Produces(MediaType.WILDCARD)
    @Operation(
            operationId = "readArtifact",
            summary = "Read an artifact",
            description = "A file the agent left under <out-dir>/artifacts/, as the result's artifacts[].href names "
                    + "it, with its media type; a Range header of one range (bytes=a-b, bytes=a-, bytes=-n) gets 206 "
                    + "with that part (docs/api.md, section 2.13).")
    @APIResponse(
            responseCode = "200",
            description = "The whole file",
            headers = {
                @Header(
                        name = "Accept-Ranges",
                        description = "bytes",
                        schema = @Schema(type = SchemaType.STRING, enumeration = "bytes"))
            },
            content =
                    @Content(
                            mediaType = MediaType.WILDCARD,
                            schema = @Schema(type = SchemaType.STRING, format = "binary")))
    @APIResponse(
            responseCode = "206",
            description = "The range asked for",
            headers = {
                @Header(
                        name = "Content-Range",
                        description = "bytes a-b/size",
                        schema = @Schema(type = SchemaType.STRING))
            },
            content =
                    @Content(
                            mediaType = MediaType.WILDCARD,
                            schema = @Schema(type = SchemaType.STRING, format = "binary")))
    @APIResponse(
            responseCode = "404",
            description =
                    "not-found: no dispatch has this id, it has not finished, or it kept no artifact of this " + "name")
    @APIResponse(
            responseCode = "410",
            description = "artifact-gone: the dispatch's artifacts were removed after sluice.artifacts.retention")
    @APIResponse(
            responseCode = "416",
            description = "range-not-satisfiable: the range starts past the end; Content-Range: bytes */size")
    @APIResponse(
            responseCode = "421",
            description = "artifact-elsewhere: another worker ran the dispatch and keeps its artifacts on its disk, "
                    + "and advertises no address to relay the read to")
    @APIResponse(
            responseCode = "429",
            description = "too-many-relayed-reads: the read would be relayed to the replica that ran the dispatch "
                    + "while sluice.api.max-relayed-reads reads, or the tenant's max-relayed-reads-per-tenant, are "
                    + "relayed (ADR 0073); retry after Retry-After")
    @APIResponse(
            responseCode = "503",
            description = "store-unavailable, or owner-unreachable (the replica that ran the dispatch, to which "
                    + "the read was relayed, did not answer in time; ADR 0065)")
    Response artifact(
            @Parameter(ref = ApiDocument.DISPATCH_ID) @PathParam("id") String id,
            @Parameter(
                            description = "the artifact's name, its path under the artifacts directory",
                            schema = @Schema(type = SchemaType.STRING))
                    @PathParam("name")
                    String name,
            @Parameter(
                            description = "one byte range: bytes=a-b, bytes=a- or bytes=-n",
                            schema = @Schema(type = SchemaType.STRING))
                    @HeaderParam("Range")
                    String range);
}
