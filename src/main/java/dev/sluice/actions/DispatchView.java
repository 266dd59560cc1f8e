package dev.sluice.actions;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import dev.sluice.callback.CallbackStore;
import dev.sluice.callback.DeliveryState;
import dev.sluice.json.RecordCopies;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchKey;
import dev.sluice.record.DispatchLinks;
import dev.sluice.record.StoredResult;

/** A dispatch record as GET and POST return it (docs/api.md, section 4). */
@JsonPropertyOrder({
    "id",
    "tenant",
    "status",
    "image",
    "createdAt",
    "startedAt",
    "finishedAt",
    "attempt",
    "traceId",
    "metadata",
    "callback",
    "result",
    "links"
})
@Schema(
        name = "DispatchRecord",
        description = "A dispatch as POST, GET, DELETE and redeliver answer it (docs/api.md, section 4).")
public record DispatchView(
        @Schema(required = true, description = "the id its tenant gave it (or was given)")
        String id,

        @Schema(required = true, description = "the tenant it belongs to (docs/api.md, section 1)")
        String tenant,

        @Schema(required = true) Dispatch.Status status,

        @Schema(required = true, description = "the image as requested")
        String image,

        @Schema(required = true, description = "when it was accepted")
        Instant createdAt,

        @Schema(required = true, nullable = true, description = "when its container started")
        Instant startedAt,

        @Schema(required = true, nullable = true, description = "when it reached its terminal status")
        Instant finishedAt,

        @Schema(
                required = true,
                minimum = "1",
                description = "which attempt runs, or ran: 1 unless its maxAttempts allowed another after a "
                        + "worker running it was lost (section 2.1.3)")
        int attempt,

        @Schema(
                required = true,
                nullable = true,
                examples = "4bf92f3577b34da6a3ce929d0e0e4736",
                description = "the W3C trace id of its spans: the one its request's traceparent named, else a "
                        + "new one (section 2.1.4); null only for dispatches accepted before traces existed")
        String traceId,

        @Schema(required = true, nullable = true, description = "as given in the request")
        Map<String, Object> metadata,

        @Schema(required = true, nullable = true, description = "null when the dispatch has no callbackUrl")
        CallbackView callback,

        @Schema(
                required = true,
                nullable = true,
                ref = "DispatchResult",
                description = "the DispatchResult once the status is terminal, null before: the stored JSON, "
                        + "the same bytes every callback attempt sends")
        StoredResult result,

        @Schema(required = true) Links links) {

    @Schema(name = "DispatchLinks", description = "The paths of the record and of its two log streams.")
    public record Links(
            @Schema(required = true, examples = "/v1/dispatches/triage-17")
            String self,

            @Schema(required = true, examples = "/v1/dispatches/triage-17/logs/stdout")
            String stdout,

            @Schema(required = true, examples = "/v1/dispatches/triage-17/logs/stderr")
            String stderr) {

        public static Links of(String id) {
            return new Links(DispatchLinks.self(id), DispatchLinks.log(id, "stdout"), DispatchLinks.log(id, "stderr"));
        }
    }

    /**
     * Delivery of the result to the callback URL; null when the dispatch has
     * none. {@code state} is pending (until delivered, including before the
     * dispatch finishes), delivered or dead; {@code history} lists the latest
     * attempts, and only on a single record.
     */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @JsonPropertyOrder({"url", "state", "attempts", "lastStatus", "nextAttemptAt", "lastError", "deliveredAt", "history"
    })
    @Schema(
            name = "CallbackView",
            description = "The delivery of the result to the callbackUrl (docs/api.md, section 4.1).")
    public record CallbackView(
            @Schema(required = true, description = "the callbackUrl")
            String url,

            @Schema(required = true) @JsonInclude(JsonInclude.Include.ALWAYS)
            DeliveryState state,

            @Schema(required = true, description = "attempts made, over all rounds")
            @JsonInclude(JsonInclude.Include.ALWAYS)
            int attempts,

            @Schema(
                    required = true,
                    nullable = true,
                    description =
                            "HTTP status of the last attempt; null before any, and when it got no " + "HTTP answer")
            @JsonInclude(JsonInclude.Include.ALWAYS)
            Integer lastStatus,

            @Schema(
                    required = true,
                    nullable = true,
                    description = "when the next attempt is due; null before the dispatch finishes, and "
                            + "once delivered or dead")
            @JsonInclude(JsonInclude.Include.ALWAYS)
            Instant nextAttemptAt,

            @Schema(
                    description = "absent when none: why the last attempt got no HTTP answer, or why the "
                            + "delivery was dead-lettered")
            String lastError,

            @Schema(description = "absent until delivered: when the first 2xx arrived")
            Instant deliveredAt,

            @Schema(description = "absent when empty, and in a listing: the latest 20 attempts, oldest first")
            List<CallbackStore.AttemptView> history) {}

    /** {@code d} as it reads once its result, the JSON {@code result}, is stored: the API's warm-up shows one. */
    public static Dispatch withResult(Dispatch d, byte[] result) {
        return RecordCopies.with(d, "result", StoredResult.of(result));
    }

    public static DispatchView of(Dispatch d, Optional<CallbackStore.State> delivery) {
        return new DispatchView(
                DispatchKey.idOf(d.id()),
                DispatchKey.tenantOf(d.id()),
                d.status(),
                d.image(),
                d.createdAt(),
                d.startedAt(),
                d.finishedAt(),
                d.attempt(),
                d.traceId(),
                d.metadata(),
                callback(d, delivery),
                d.result(),
                Links.of(d.id()));
    }

    static CallbackView callback(Dispatch d, Optional<CallbackStore.State> delivery) {
        if (d.callbackUrl() == null) {
            return null;
        }
        return delivery.map(s -> new CallbackView(
                        d.callbackUrl(),
                        s.state(),
                        s.attempts(),
                        s.lastStatus(),
                        s.nextAttemptAt(),
                        s.lastError(),
                        s.deliveredAt(),
                        s.history()))
                .orElseGet(() ->
                        new CallbackView(d.callbackUrl(), DeliveryState.PENDING, 0, null, null, null, null, List.of()));
    }
}
