package dev.sluice.group;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.concurrent.Jobs;
import io.quarkus.scheduler.Scheduled;

/** Makes the group batches due: thin and never throwing; the work is in {@link GroupBatcher}. */
@Singleton
class GroupJobs {

    @Inject
    GroupBatcher batcher;

    @Scheduled(every = "${sluice.groups.poll-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void batch() {
        Jobs.run("group batches", batcher::run);
    }
}
