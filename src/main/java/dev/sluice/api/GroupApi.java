package dev.sluice.api;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

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

import dev.sluice.actions.GroupRequest;
import dev.sluice.actions.GroupView;
import dev.sluice.group.GroupCallbackDocuments;

/**
 * The dispatch group routes (docs/api.md, sections 2.9 and 2.10; ADR 0028);
 * {@link GroupResource} implements them.
 */
@Path("/v1/dispatch-groups")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Dispatch groups", description = "Run many dispatches that report together, in batches of digests")
public interface GroupApi {

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(
            operationId = "createDispatchGroup",
            summary = "Accept a dispatch group",
            description = "Checks every member as POST /v1/dispatches checks a dispatch, then stores the group and "
                    + "all its members in one transaction and queues them; a refused group accepts nothing. "
                    + "Completions are POSTed to callbackUrl in signed batches of digests within maxDigestBytes, "
                    + "then one final callback (docs/api.md, sections 2.9 and 8.11).")
    @RequestBody(
            required = true,
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = GroupRequest.class)))
    @Callback(
            name = "groupMessage",
            callbackUrlExpression = "{$request.body#/callbackUrl}",
            operations =
                    @CallbackOperation(
                            method = "post",
                            summary = "A batch of the group's completions, or its final callback, signed for its "
                                    + "tenant",
                            description = "Signed the Standard Webhooks way with the group's tenant's secrets; a "
                                    + "receiver checks the signature, then tenant and groupId (docs/api.md, "
                                    + "sections 8.10 and 8.11).",
                            requestBody =
                                    @RequestBody(
                                            required = true,
                                            content =
                                                    @Content(
                                                            mediaType = MediaType.APPLICATION_JSON,
                                                            schema =
                                                                    @Schema(
                                                                            oneOf = {
                                                                                GroupCallbackDocuments.Batch.class,
                                                                                GroupCallbackDocuments.Finished.class
                                                                            })))))
    @APIResponse(
            responseCode = "202",
            description = "Accepted: the group record",
            headers =
                    @Header(
                            name = "Location",
                            description = "the group record's address",
                            schema = @Schema(type = SchemaType.STRING)),
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = GroupView.class)))
    @APIResponse(responseCode = "403", description = "image-not-allowed: a member's image is not allowed")
    @APIResponse(responseCode = "409", description = "id-conflict: a member's id names an existing dispatch")
    @APIResponse(
            responseCode = "422",
            description = "validation-failed: no member, too many (refused as the member past the maximum is "
                    + "read), an unknown field, or a bad field of the group or of a member (named "
                    + "dispatches.<index>.<field>)")
    @APIResponse(
            responseCode = "429",
            description = "tenant-at-capacity: the caller's tenant has no place for every member; "
                    + "at-capacity: the worker has not; too-many-bodies: the worker, or the caller's tenant, is "
                    + "reading as many request bytes as sluice.api.max-decoding-bytes (-per-tenant) allows")
    @APIResponse(
            responseCode = "503",
            description = "shutting-down, engine-unavailable or store-unavailable; nothing was accepted")
    @Parameter(
            name = "traceparent",
            in = ParameterIn.HEADER,
            description = "W3C Trace Context: each member's spans continue this trace (docs/api.md, section 2.1.4)",
            schema = @Schema(type = SchemaType.STRING))
    Response create(GroupRequest request);

    @GET
    @Path("{id}")
    @Operation(
            operationId = "getDispatchGroup",
            summary = "Read a dispatch group",
            description = "Each member's status and digest, the budget spent and the batches sent (docs/api.md, "
                    + "section 2.10).")
    @APIResponse(
            responseCode = "200",
            description = "The group record",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = GroupView.class)))
    @APIResponse(responseCode = "404", description = "not-found: no dispatch group has this id")
    GroupView get(
            @Parameter(
                            description = "the group id",
                            schema = @Schema(type = SchemaType.STRING, pattern = "^g-[0-9a-f]{32}$"))
                    @PathParam("id")
                    String id);
}
