package dev.sluice.run;

import java.util.function.Supplier;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.sluice.concurrent.Jobs;
import dev.sluice.record.CancelRequests;
import dev.sluice.worker.Peers;
import dev.sluice.worker.Worker;
import io.quarkus.scheduler.Scheduled;

/**
 * Polls for cancels sent to other replicas, every {@code sluice.dispatch.tick}
 * (ADR 0065): thin, never throwing. On the embedded store every cancel reaches
 * the one worker directly, so it asks nothing.
 */
@Singleton
class RemoteCancelJob {

    private static final Logger LOG = Logger.getLogger(RemoteCancelJob.class);

    private final RemoteCancels cancels;
    private final boolean shared;

    @Inject
    RemoteCancelJob(CancelRequests requests, DispatchScheduler scheduler, Worker worker, Peers peers) {
        Supplier<Iterable<String>> mine = () -> requests.of(worker.id());
        this.cancels = new RemoteCancels(mine, scheduler::execution);
        this.shared = peers.shared();
    }

    @Scheduled(every = "${sluice.dispatch.tick}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void poll() {
        if (!shared) {
            return;
        }
        Jobs.run("cancels from other replicas", () -> {
            int stopped = cancels.poll();
            if (stopped > 0) {
                LOG.infof("stopping %d dispatches cancelled through another replica", stopped);
            }
        });
    }
}
