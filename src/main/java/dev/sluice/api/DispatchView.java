package dev.sluice.api;

import java.time.Instant;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import dev.sluice.dispatch.Dispatch;
import dev.sluice.dispatch.DispatchLinks;
import dev.sluice.dispatch.DispatchResult;

/** A dispatch record as GET and POST return it (DESIGN "Dispatch record"). */
@JsonPropertyOrder({"id", "status", "image", "createdAt", "startedAt", "finishedAt", "metadata", "callback", "result", "links"})
public record DispatchView(
        String id,
        Dispatch.Status status,
        String image,
        Instant createdAt,
        Instant startedAt,
        Instant finishedAt,
        Map<String, Object> metadata,
        CallbackView callback,
        DispatchResult result,
        Links links) {

    public record Links(String self, String stdout, String stderr) {

        static Links of(String id) {
            return new Links(DispatchLinks.self(id), DispatchLinks.log(id, "stdout"), DispatchLinks.log(id, "stderr"));
        }
    }

    /** Delivery state of the result to the callback URL; null when the dispatch has none. */
    public record CallbackView(String url, String state, int attempts, Integer lastStatus, Instant nextAttemptAt) {
    }

    static DispatchView of(Dispatch d) {
        return new DispatchView(d.id(), d.status(), d.image(), d.createdAt(), d.startedAt(), d.finishedAt(),
                d.metadata(), callback(d), d.result(), Links.of(d.id()));
    }

    static CallbackView callback(Dispatch d) {
        return d.callbackUrl() == null ? null : new CallbackView(d.callbackUrl(), "pending", 0, null, null);
    }
}
