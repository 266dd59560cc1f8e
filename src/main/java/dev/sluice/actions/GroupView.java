package dev.sluice.actions;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonRawValue;

import dev.sluice.group.DispatchGroup;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchKey;

/** A group record as GET and POST return it (docs/api.md, section 2.10). */
@JsonPropertyOrder({
    "id",
    "tenant",
    "status",
    "createdAt",
    "finishedAt",
    "callbackUrl",
    "metadata",
    "budget",
    "batches",
    "members",
    "links"
})
@Schema(name = "DispatchGroupRecord", description = "A dispatch group (docs/api.md, section 2.10).")
public record GroupView(
        @Schema(required = true, description = "g- and 32 hex digits")
        String id,

        @Schema(required = true, description = "the tenant it belongs to, as its members do")
        String tenant,

        @Schema(
                required = true,
                enumeration = {"running", "finished"},
                description = "running until every member is terminal, then finished")
        String status,

        @Schema(required = true) Instant createdAt,

        @Schema(required = true, nullable = true, description = "when the last member ended")
        Instant finishedAt,

        @Schema(required = true, nullable = true) String callbackUrl,
        @Schema(required = true, nullable = true) Map<String, Object> metadata,
        @Schema(required = true) Budget budget,

        @Schema(required = true, description = "batch callbacks queued so far")
        int batches,

        @Schema(required = true, description = "in request order")
        List<Member> members,

        @Schema(required = true) Links links) {

    @Schema(name = "DispatchGroupBudget", description = "What the group's batch callbacks may carry, and have.")
    public record Budget(
            @Schema(required = true) long maxDigestBytes,

            @Schema(required = true, description = "the bytes of the batch callbacks queued so far")
            long spentBytes) {}

    @Schema(name = "DispatchGroupMember", description = "A member: its status and digest (docs/api.md, 7.6).")
    @JsonPropertyOrder({"id", "status", "digest"})
    public record Member(
            @Schema(required = true) String id,

            @Schema(required = true, nullable = true, description = "null when its record was reaped")
            Dispatch.Status status,

            @Schema(
                    required = true,
                    nullable = true,
                    type = org.eclipse.microprofile.openapi.annotations.enums.SchemaType.OBJECT,
                    description = "the digest, as GET /v1/dispatches/{id}/digest; null when its record was reaped")
            @JsonRawValue
            String digest) {}

    @Schema(name = "DispatchGroupLinks")
    public record Links(@Schema(required = true) String self) {}

    static GroupView of(DispatchGroup g) {
        return new GroupView(
                DispatchKey.idOf(g.id()),
                DispatchKey.tenantOf(g.id()),
                g.finished() ? "finished" : "running",
                g.createdAt(),
                g.finishedAt(),
                g.callbackUrl(),
                g.metadata(),
                new Budget(g.maxDigestBytes(), g.spentBytes()),
                g.batches(),
                g.members().stream()
                        .map(m -> new Member(
                                DispatchKey.idOf(m.id()),
                                m.status(),
                                m.digest() == null ? null : new String(m.digest(), StandardCharsets.UTF_8)))
                        .toList(),
                new Links(g.link()));
    }
}
