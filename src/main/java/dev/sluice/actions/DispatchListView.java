package dev.sluice.actions;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.sluice.callback.CallbackStore;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchSummary;

/**
 * One page of dispatches, newest first. Items carry a summary instead of the
 * result, so a page stays small however much the dispatches printed; the full
 * record is at {@code links.self}. {@code next} is the next page, or null.
 */
@Schema(name = "DispatchListing", description = "One page of dispatches, newest first (docs/api.md, section 5).")
public record DispatchListView(
        @Schema(required = true) List<Item> items,

        @Schema(
                required = true,
                nullable = true,
                description = "the relative URL of the next page, also sent as Link; null on the last page",
                examples = "/v1/dispatches?limit=3&after=review-43")
        String next) {

    @Schema(
            name = "DispatchListItem",
            description = "A dispatch record with summary in place of result, and no callback history.")
    public record Item(
            @Schema(required = true, description = "the id its tenant gave it (or was given)")
            String id,

            @Schema(required = true, description = "the tenant it belongs to (docs/api.md, section 1)")
            String tenant,

            @Schema(required = true) Dispatch.Status status,
            @Schema(required = true) String image,
            @Schema(required = true) Instant createdAt,
            @Schema(required = true, nullable = true) Instant startedAt,
            @Schema(required = true, nullable = true) Instant finishedAt,
            @Schema(required = true, nullable = true) Map<String, Object> metadata,
            @Schema(required = true, nullable = true) DispatchView.CallbackView callback,

            @Schema(required = true, nullable = true, description = "null until the status is terminal")
            DispatchSummary summary,

            @Schema(required = true) DispatchView.Links links) {

        /** The dispatch's view without its result, with the summary in its place. */
        static Item of(Dispatch d, Optional<CallbackStore.State> delivery) {
            DispatchView view = DispatchView.of(d, delivery);
            return new Item(
                    view.id(),
                    view.tenant(),
                    view.status(),
                    view.image(),
                    view.createdAt(),
                    view.startedAt(),
                    view.finishedAt(),
                    view.metadata(),
                    view.callback(),
                    d.summary(),
                    view.links());
        }
    }
}
