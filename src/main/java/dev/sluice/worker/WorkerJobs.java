package dev.sluice.worker;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.concurrent.Jobs;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;

/** The worker's own scheduled jobs: thin, never throwing, each calling a plain class. */
@Singleton
class WorkerJobs {

    @Inject
    WorkerLease lease;

    @Inject
    Reconciler reconciler;

    /**
     * Before taking requests: claim the lease and take up what a previous run of
     * this worker left, then close what lost workers left.
     */
    void atStart(@Observes @Priority(10) StartupEvent event) {
        Jobs.run("lease", lease::renew);
        Jobs.run("reconciliation at start", () -> reconciler.reconcileOwn(true));
        Jobs.run("lost workers", reconciler::sweepLost);
    }

    /** Renewed three times or more per lease period, so a live worker is never taken for lost. */
    @Scheduled(every = "${sluice.dispatch.tick}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void renewLease() {
        Jobs.run("lease", lease::renew);
    }

    @Scheduled(
            every = "${sluice.worker.reconcile-interval}",
            delayed = "${sluice.worker.reconcile-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void reconcile() {
        Jobs.run("reconciliation", () -> reconciler.reconcileOwn(false));
        Jobs.run("lost workers", reconciler::sweepLost);
    }
}
