package dev.sluice.group;

import java.time.Clock;
import java.time.Duration;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.sluice.concurrent.Jobs;
import dev.sluice.record.DispatchConfig;
import io.quarkus.scheduler.Scheduled;

/**
 * Makes the group batches due, and deletes finished groups once dispatch
 * records of their age are: thin and never throwing; the work is in
 * {@link GroupBatcher} and {@link GroupStore}.
 */
@Singleton
class GroupJobs {

    private static final Logger LOG = Logger.getLogger(GroupJobs.class);

    @Inject
    GroupBatcher batcher;

    @Inject
    GroupStore groups;

    @Inject
    Clock clock;

    @Inject
    DispatchConfig dispatches;

    @Scheduled(every = "${sluice.groups.poll-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void batch() {
        Jobs.run("group batches", batcher::run);
    }

    @Scheduled(
            every = "${sluice.dispatch.reaper-interval}",
            delayed = "${sluice.dispatch.reaper-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void reap() {
        Jobs.run("group reaper", () -> {
            Duration retention = dispatches.recordRetention();
            int deleted = groups.reapFinished(clock.instant().minus(retention));
            if (deleted > 0) {
                LOG.infof("deleted %d groups finished over %s ago", deleted, retention);
            }
        });
    }
}
