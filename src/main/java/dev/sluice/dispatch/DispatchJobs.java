package dev.sluice.dispatch;

import java.time.Clock;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.sluice.container.ContainerException;
import dev.sluice.container.ContainerReaper;
import dev.sluice.container.EngineMonitor;
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
    ContainerReaper containers;
    @Inject
    RecordReaper records;
    @Inject
    SecretVault vault;
    @Inject
    Clock clock;

    /** Engine health first: queued dispatches start only while it answers. */
    @Scheduled(every = "${sluice.dispatch.tick}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void tick() {
        try {
            engine.check();
            scheduler.drain();
            service.expireQueued();
        } catch (RuntimeException e) {
            LOG.warnf("dispatch tick failed: %s", e.getMessage());
        }
    }

    @Scheduled(every = "${sluice.dispatch.reaper-interval}", delayed = "30s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void reap() {
        try {
            containers.reap(clock.instant()).forEach(r -> vault.forget(r.dispatchId()));
        } catch (ContainerException e) {
            LOG.warnf("container reaper: %s", e.getMessage());
        }
        try {
            records.reap(clock.instant());
        } catch (RuntimeException e) {
            LOG.warnf("record reaper: %s", e.getMessage());
        }
    }
}
