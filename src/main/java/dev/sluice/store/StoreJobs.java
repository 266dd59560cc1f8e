package dev.sluice.store;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.concurrent.Jobs;
import io.quarkus.scheduler.Scheduled;

/** The store's health, probed on its own schedule; the health checks read the last answer. */
@Singleton
class StoreJobs {

    @Inject
    StoreMonitor monitor;

    @Scheduled(every = "${sluice.store.probe-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void probe() {
        Jobs.run("store probe", monitor::probe);
    }
}
