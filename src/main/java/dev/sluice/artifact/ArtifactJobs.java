package dev.sluice.artifact;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.concurrent.Jobs;
import io.quarkus.scheduler.Scheduled;

/** Artifacts past their retention are deleted as stopped containers are reaped: thin, never throwing. */
@Singleton
class ArtifactJobs {

    @Inject
    ArtifactStore store;

    @Scheduled(
            every = "${sluice.dispatch.reaper-interval}",
            delayed = "${sluice.dispatch.reaper-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void sweep() {
        Jobs.run("artifact sweep", store::sweep);
    }
}
