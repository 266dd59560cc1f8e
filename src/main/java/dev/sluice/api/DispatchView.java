package dev.sluice.api;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import dev.sluice.callback.CallbackStore;
import dev.sluice.callback.DeliveryState;
import dev.sluice.dispatch.Dispatch;
import dev.sluice.dispatch.DispatchLinks;
import dev.sluice.dispatch.StoredResult;

/** A dispatch record as GET and POST return it (docs/api.md, section 4). */
@JsonPropertyOrder({
    "id",
    "status",
    "image",
    "createdAt",
    "startedAt",
    "finishedAt",
    "metadata",
    "callback",
    "result",
    "links"
})
public record DispatchView(
        String id,
        Dispatch.Status status,
        String image,
        Instant createdAt,
        Instant startedAt,
        Instant finishedAt,
        Map<String, Object> metadata,
        CallbackView callback,
        StoredResult result,
        Links links) {

    public record Links(String self, String stdout, String stderr) {

        static Links of(String id) {
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
    public record CallbackView(
            String url,
            @JsonInclude(JsonInclude.Include.ALWAYS) DeliveryState state,
            @JsonInclude(JsonInclude.Include.ALWAYS) int attempts,
            @JsonInclude(JsonInclude.Include.ALWAYS) Integer lastStatus,
            @JsonInclude(JsonInclude.Include.ALWAYS) Instant nextAttemptAt,
            String lastError,
            Instant deliveredAt,
            List<CallbackStore.AttemptView> history) {}

    static DispatchView of(Dispatch d, Optional<CallbackStore.State> delivery) {
        return new DispatchView(
                d.id(),
                d.status(),
                d.image(),
                d.createdAt(),
                d.startedAt(),
                d.finishedAt(),
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
