package dev.sluice.run;

import java.time.Clock;

import dev.sluice.record.Dispatch;
import dev.sluice.record.Ending;

/** Ends the dispatches that waited in the queue past {@code sluice.dispatch.max-queue-wait} as {@code queue_timeout}. */
final class QueueExpiry {

    private final DispatchScheduler scheduler;
    private final Finisher finisher;
    private final Clock clock;

    QueueExpiry(DispatchScheduler scheduler, Finisher finisher, Clock clock) {
        this.scheduler = scheduler;
        this.finisher = finisher;
        this.clock = clock;
    }

    /** Returns how many it ended. */
    int expire() {
        int ended = 0;
        for (DispatchScheduler.Queued q : scheduler.expire()) {
            if (finisher.finishQueued(Ending.withoutOutput(
                    q.id(), q.spec(), Dispatch.Status.ERROR, Errors.QUEUE_TIMEOUT, clock.instant()))) {
                ended++;
            }
        }
        return ended;
    }
}
