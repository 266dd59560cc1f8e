package dev.sluice.run;

import java.time.Clock;
import java.util.Optional;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchSpec;
import dev.sluice.record.DispatchStore;
import dev.sluice.record.Ending;

/**
 * Ends the dispatches that waited in the queue past {@code sluice.dispatch.max-queue-wait} as {@code queue_timeout}.
 * The queue holds no requests (ADR 0057): each one's is read back from the store to end it. A store that fails
 * meanwhile leaves the rest for reconciliation, as any store failure does.
 */
@Singleton
final class QueueExpiry {

    /** At most this many of the store's queue per round: the rest wait for the next. */
    private static final int BATCH = 100;

    private final DispatchScheduler scheduler;
    private final DispatchStore store;
    private final Finisher finisher;
    private final Clock clock;

    @Inject
    QueueExpiry(DispatchScheduler scheduler, DispatchStore store, Finisher finisher, Clock clock) {
        this.scheduler = scheduler;
        this.store = store;
        this.finisher = finisher;
        this.clock = clock;
    }

    /** Returns how many it ended. */
    int expire() {
        int ended = 0;
        for (DispatchScheduler.Queued q : scheduler.expire(BATCH)) {
            Optional<DispatchSpec> spec = store.spec(q.id());
            if (spec.isPresent()
                    && finisher.finishQueued(Ending.withoutOutput(
                            q.id(), spec.get(), Dispatch.Status.ERROR, Errors.QUEUE_TIMEOUT, clock.instant()))) {
                ended++;
            }
        }
        return ended;
    }
}
