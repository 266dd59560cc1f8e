package dev.sluice.dispatch;

import java.time.Clock;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.EngineMonitor;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;

/** The scheduled jobs of dispatches: thin, never throwing, each calling a plain class. */
@Singleton
class DispatchJobs {

    private static final Logger LOG = Logger.getLogger(DispatchJobs.class);

    @Inject
    EngineMonitor engine;
    @Inject
    DispatchScheduler scheduler;
    @Inject
    DispatchService service;
    @Inject
    Reconciler reconciler;
    @Inject
    Reaper reaper;
    @Inject
    RecordReaper records;
    @Inject
    SecretVault vault;
    @Inject
    WorkerLease lease;
    @Inject
    ContainerRuntime runtime;
    @Inject
    Clock clock;

    /** Before taking requests: claim the lease and take up what a previous run of this worker left. */
    void atStart(@Observes StartupEvent event) {
        run("lease", lease::renew);
        run("reconciliation at start", () -> reconciler.reconcileOwn(true));
        run("lost workers", reconciler::sweepLost);
        // Only an engine that answers its (bounded) ping is warmed up: a hung one must not hold up the start.
        run("warm-up", () -> {
            if (engine.check().available()) {
                runtime.warmUp();
            }
        });
    }

    /** Lease and engine health first: queued dispatches start only while the engine answers. */
    @Scheduled(every = "${sluice.dispatch.tick}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void tick() {
        run("lease", lease::renew);
        run("engine check", engine::check);
        run("queue", () -> {
            scheduler.drain();
            service.expireQueued();
        });
    }

    @Scheduled(every = "${sluice.worker.reconcile-interval}", delayed = "${sluice.worker.reconcile-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void reconcile() {
        run("reconciliation", () -> reconciler.reconcileOwn(false));
        run("lost workers", reconciler::sweepLost);
    }

    @Scheduled(every = "${sluice.dispatch.reaper-interval}", delayed = "${sluice.dispatch.reaper-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void reap() {
        run("container reaper", () -> reaper.reap(clock.instant()).forEach(vault::forget));
        run("record reaper", () -> records.reap(clock.instant()));
    }

    private static void run(String job, Runnable work) {
        try {
            work.run();
        } catch (RuntimeException e) {
            LOG.warnf("%s failed: %s", job, e.getMessage());
        }
    }
}
