package dev.sluice.api;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.sluice.callback.CallbackStore;
import dev.sluice.dispatch.Dispatch;
import dev.sluice.dispatch.DispatchSummary;

/**
 * One page of dispatches, newest first. Items carry a summary instead of the
 * result, so a page stays small however much the dispatches printed; the full
 * record is at {@code links.self}. {@code next} is the next page, or null.
 */
public record DispatchListView(List<Item> items, String next) {

    public record Item(
            String id,
            Dispatch.Status status,
            String image,
            Instant createdAt,
            Instant startedAt,
            Instant finishedAt,
            Map<String, Object> metadata,
            DispatchView.CallbackView callback,
            DispatchSummary summary,
            DispatchView.Links links) {

        static Item of(Dispatch d, Optional<CallbackStore.State> delivery) {
            return new Item(
                    d.id(),
                    d.status(),
                    d.image(),
                    d.createdAt(),
                    d.startedAt(),
                    d.finishedAt(),
                    d.metadata(),
                    DispatchView.callback(d, delivery),
                    d.summary(),
                    DispatchView.Links.of(d.id()));
        }
    }
}
