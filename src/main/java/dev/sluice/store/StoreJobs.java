package dev.sluice.store;

import java.time.Duration;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.concurrent.Jobs;
import io.quarkus.scheduler.Scheduled;

/** The store's health, probed on its own schedule; the health checks read the last answer. */
@Singleton
class StoreJobs {

    @Inject
    StoreMonitor monitor;

    @Inject
    ResultBodies bodies;

    /** What a crash left between a result's body and its row, once it can no longer be a finish in progress. */
    @Scheduled(every = "${sluice.dispatch.reaper-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void sweepResultFiles() {
        Jobs.run("result file sweep", () -> bodies.sweep(Duration.ofMinutes(1)));
    }

    @Scheduled(every = "${sluice.store.probe-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void probe() {
        Jobs.run("store probe", monitor::probe);
    }
}
