package dev.sluice.actions;

import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.sluice.actions.reading.BodyLimits;

/** A dispatch group as a control plane POSTs it (docs/api.md, section 2.9); unknown fields are refused. */
@Schema(
        name = "DispatchGroupRequest",
        description = "Dispatches that run as ordinary dispatches and report to one callback URL in batches of "
                + "digests within a byte budget (docs/api.md, sections 2.9 and 8.11). A refused group accepts "
                + "nothing.")
public record GroupRequest(
        @Schema(
                required = true,
                description = "the members, 1 to sluice.groups.max-members (50), counted as the body is read, "
                        + "each checked as POST /v1/dispatches checks a dispatch; a member may not name a "
                        + "callbackUrl, and its id must be new")
        List<DispatchRequest> dispatches,

        @Schema(description = "where the group's batches and final callback are POSTed, signed as results are")
        String callbackUrl,

        @Schema(
                description = "the most bytes the group's batch callbacks carry in all; a batch that would pass "
                        + "it goes as references, or is named in the final callback (default "
                        + "sluice.groups.max-digest-bytes, 6144)",
                minimum = "0",
                maximum = "1048576")
        Long maxDigestBytes,

        @Schema(
                description = "any JSON object of at most 16384 bytes, " + BodyLimits.METADATA_VALUES
                        + " values and " + BodyLimits.METADATA_DEPTH + " levels below it (section 3.7), "
                        + "returned in the group record")
        Map<String, Object> metadata) {}
