package dev.sluice.run;

import java.time.Clock;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.concurrent.Jobs;
import dev.sluice.container.ContainerReaper;
import dev.sluice.record.RecordReaper;
import dev.sluice.record.SecretVault;
import io.quarkus.scheduler.Scheduled;

/** The scheduled jobs of dispatches: thin, never throwing, each calling a plain class. */
@Singleton
class DispatchJobs {

    @Inject
    DispatchScheduler scheduler;

    @Inject
    QueueExpiry expiry;

    @Inject
    ContainerReaper containers;

    @Inject
    RecordReaper records;

    @Inject
    SecretVault vault;

    @Inject
    Clock clock;

    @Inject
    SchedulerWatch watch;

    /** Starts what can start (the engine may be back) and ends what waited too long. */
    @Scheduled(every = "${sluice.dispatch.tick}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void tick() {
        Jobs.run("queue", () -> {
            scheduler.drain();
            expiry.expire();
        });
        // After the round, whatever became of it: a round that never returns is what the watch is for.
        watch.ticked();
    }

    @Scheduled(
            every = "${sluice.dispatch.reaper-interval}",
            delayed = "${sluice.dispatch.reaper-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void reap() {
        Jobs.run("container reaper", () -> containers.reap(clock.instant()).forEach(vault::forget));
        Jobs.run("record reaper", () -> records.reap(clock.instant()));
    }
}
