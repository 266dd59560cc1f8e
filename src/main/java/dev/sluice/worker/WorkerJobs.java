package dev.sluice.worker;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.concurrent.Jobs;
import dev.sluice.concurrent.Threads;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;

/** The worker's own scheduled jobs: thin, never throwing, each calling a plain class. */
@Singleton
class WorkerJobs {

    @Inject
    WorkerLease lease;

    @Inject
    Reconciliation reconciliation;

    /**
     * Before taking requests: claim the lease. Then take up what a previous run
     * of this worker left, and close what lost workers left, on a thread of its
     * own: the probes answer meanwhile, startup DOWN until it is done (ADR 0067).
     */
    void atStart(@Observes @Priority(10) StartupEvent event) {
        Jobs.run("lease", lease::renew);
        reconciliation.started();
        Thread first = Threads.named("reconcile-at-start-").newThread(reconciliation::pass);
        first.start();
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
        reconciliation.pass();
    }
}
