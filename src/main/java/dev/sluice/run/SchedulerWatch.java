package dev.sluice.run;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.worker.WorkerConfig;

/**
 * Whether the dispatch scheduler still makes progress: liveness reads it (ADR
 * 0067). Wedged when its tick has not completed, or one filler pass has held
 * the filler's lock, for the stall timeout while the store answers: nothing
 * outside this process explains that (a deadlock, a call stuck for good), so a
 * restart is the remedy. A store that does not answer explains it, and a
 * restart would not mend the store: readiness says so instead.
 */
@Singleton
public class SchedulerWatch {

    private final Supplier<Optional<Instant>> fillingSince;
    private final Clock clock;
    private final Duration stallTimeout;
    private volatile Instant lastTick;

    @Inject
    SchedulerWatch(DispatchScheduler scheduler, Clock clock, WorkerConfig config) {
        this(scheduler::fillingSince, clock, config.schedulerStallTimeout());
    }

    SchedulerWatch(Supplier<Optional<Instant>> fillingSince, Clock clock, Duration stallTimeout) {
        this.fillingSince = fillingSince;
        this.clock = clock;
        this.stallTimeout = stallTimeout;
        this.lastTick = clock.instant();
    }

    /** A tick of the scheduler completed. */
    void ticked() {
        lastTick = clock.instant();
    }

    /** Why the scheduler is wedged, or empty while it makes progress or the store explains why it does not. */
    public Optional<String> wedged(boolean storeAnswers) {
        if (!storeAnswers) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        Optional<Instant> filling = fillingSince.get();
        if (filling.isPresent() && stalled(filling.get(), now)) {
            return Optional.of("a pass of the queue's filler has run since " + filling.get());
        }
        if (stalled(lastTick, now)) {
            return Optional.of("the scheduler's tick has not completed since " + lastTick);
        }
        return Optional.empty();
    }

    private boolean stalled(Instant since, Instant now) {
        return Duration.between(since, now).compareTo(stallTimeout) > 0;
    }
}
