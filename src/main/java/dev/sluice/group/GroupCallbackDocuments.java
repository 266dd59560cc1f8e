package dev.sluice.group;

import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.sluice.record.DigestDocument;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchKey;

/**
 * A group's signed callback bodies as the API document names their fields
 * (docs/api.md, section 8.11): {@link GroupBodies} writes the bytes within the
 * group's budget; these types only describe them.
 */
public final class GroupCallbackDocuments {

    /** Both callbacks start with their type, then these two, as section 8.11 shows them. */
    private static final String GROUP_ID = "the group's id, as its tenant knows it";

    private static final String TENANT = "the group's tenant: a receiver checks it (section 8.10)";

    private GroupCallbackDocuments() {}

    /** A batch: the members that ended within one window, as digests or references. */
    @Schema(name = "GroupBatchCallback", description = "A group's batch callback (docs/api.md, section 8.11).")
    public record Batch(
            @Schema(required = true, enumeration = "group.batch")
            String type,

            @Schema(required = true, description = GROUP_ID) String groupId,

            @Schema(required = true, pattern = DispatchKey.TENANT_PATTERN, description = TENANT)
            String tenant,

            @Schema(required = true, minimum = "1") int batch,

            @Schema(
                    required = true,
                    enumeration = {"digests", "references"})
            String mode,

            @Schema(required = true) int members,

            @Schema(required = true, description = "members ended so far, this batch's included")
            int finished,

            @Schema(required = true, description = "this batch's members by status")
            Map<String, Integer> counts,

            @Schema(required = true) Budget budget,

            @Schema(
                    required = true,
                    description = "one per member that ended: its digest in mode digests, a reference in mode "
                            + "references")
            List<Item> items,

            @Schema(required = true) Links links) {}

    /** One member in a batch: its digest, or a reference to it, as the batch's mode says. */
    @Schema(
            name = "GroupBatchItem",
            oneOf = {DigestDocument.class, Reference.class})
    public interface Item {}

    /** The last callback, once every member is terminal. */
    @Schema(name = "GroupFinishedCallback", description = "A group's final callback (docs/api.md, section 8.11).")
    public record Finished(
            @Schema(required = true, enumeration = "group.finished")
            String type,

            @Schema(required = true, description = GROUP_ID) String groupId,

            @Schema(required = true, pattern = DispatchKey.TENANT_PATTERN, description = TENANT)
            String tenant,

            @Schema(required = true, enumeration = "finished")
            String status,

            @Schema(required = true) int members,

            @Schema(required = true, description = "every member by status")
            Map<String, Integer> counts,

            @Schema(required = true) int batches,
            @Schema(required = true) Budget budget,

            @Schema(required = true, description = "a reference to each member no batch reported")
            List<Reference> items,

            @Schema(required = true) Links links) {}

    /** A member by reference: its digest is at {@code href} and in the group record. */
    @Schema(name = "GroupMemberReference")
    public record Reference(
            @Schema(required = true) String id,
            @Schema(required = true) Dispatch.Status status,

            @Schema(required = true, description = "the member's record")
            String href) {}

    /** The group's budget for batch bodies. */
    @Schema(name = "GroupCallbackBudget")
    public record Budget(
            @Schema(required = true) long maxDigestBytes,

            @Schema(required = true, description = "bytes of the batch bodies so far, this one included")
            long spentBytes) {}

    /** Where the group's record is. */
    @Schema(name = "GroupCallbackLinks")
    public record Links(
            @Schema(required = true, description = "the group record's path")
            String group) {}
}
