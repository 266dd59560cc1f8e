package dev.sluice.run;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.sluice.concurrent.LogScope;
import dev.sluice.container.ContainerInventory;
import dev.sluice.container.ContainerStopper;
import dev.sluice.container.engine.ContainerException;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchQueue;
import dev.sluice.record.DispatchResult;
import dev.sluice.record.DispatchStore;
import dev.sluice.record.DispatchTransitions;
import dev.sluice.record.Ending;
import dev.sluice.trace.Phase;
import dev.sluice.trace.Tracing;
import dev.sluice.worker.Reconciler;

/** Carries out what reconciliation decides (ADR 0010), through the same scheduler, runner and finish path as any dispatch. */
@Singleton
final class Takeover implements Reconciler.Lifecycle {

    private static final Logger LOG = Logger.getLogger(Takeover.class);

    /** How long a pass waits for the scheduler to finish a round of claims; it is tried again later. */
    private static final Duration CLAIM_PATIENCE = Duration.ofSeconds(30);

    private final DispatchStore store;
    private final DispatchTransitions transitions;
    private final DispatchScheduler scheduler;
    private final DispatchQueue queue;
    private final DispatchRunner runner;
    private final Finisher finisher;
    private final ContainerStopper stopper;
    private final ContainerInventory inventory;
    private final Clock clock;
    private final Tracing tracing;

    @Inject
    Takeover(
            DispatchStore store,
            DispatchTransitions transitions,
            DispatchScheduler scheduler,
            DispatchQueue queue,
            DispatchRunner runner,
            Finisher finisher,
            ContainerStopper stopper,
            ContainerInventory inventory,
            Clock clock,
            Tracing tracing) {
        this.store = store;
        this.transitions = transitions;
        this.scheduler = scheduler;
        this.queue = queue;
        this.runner = runner;
        this.finisher = finisher;
        this.stopper = stopper;
        this.inventory = inventory;
        this.clock = clock;
        this.tracing = tracing;
    }

    @Override
    public List<Reconciler.Unfinished> undriven(String workerId) {
        return scheduler.untracked(() -> store.unfinished(workerId), Reconciler.Unfinished::id, CLAIM_PATIENCE);
    }

    /**
     * Back in the store's queue, for whichever worker may run it; one with
     * secrets stays this worker's, whose runner ends it as secrets_unavailable
     * if they were lost.
     */
    @Override
    public void requeue(String dispatchId) {
        store.held(dispatchId).ifPresent(held -> {
            if (held.status() == Dispatch.Status.STARTING) {
                transitions.markQueuedAgain(dispatchId);
            }
            scheduler.requeue(dispatchId);
        });
    }

    @Override
    public void closeContainerLost(String dispatchId) {
        store.held(dispatchId)
                .ifPresent(held -> finisher.finish(Ending.withoutOutput(
                        dispatchId, held.spec(), Dispatch.Status.ERROR, Errors.CONTAINER_LOST, clock.instant())));
    }

    @Override
    public void abandon(String dispatchId, String containerId) {
        store.held(dispatchId).ifPresent(held -> {
            stopper.stop(containerId);
            finisher.finish(Ending.withoutOutput(
                    dispatchId, held.spec(), Dispatch.Status.ERROR, Errors.SECRETS_UNAVAILABLE, clock.instant()));
        });
    }

    @Override
    public void resume(String dispatchId, String containerId) {
        store.held(dispatchId)
                .ifPresent(held -> scheduler.adopt(dispatchId, execution -> {
                    try (Phase trace = tracing.continued(held.traceparent())) {
                        runner.resume(
                                dispatchId,
                                held.spec(),
                                execution,
                                held.startedAt(),
                                held.cancelRequested(),
                                containerId);
                    }
                }));
    }

    /**
     * What lost workers claimed and never started waits in the queue again, as
     * does what they ran that may be attempted again; the rest of theirs ends.
     */
    @Override
    public List<String> closeLost(String workerId, Instant now, int limit) {
        int released = queue.releaseLost(now);
        if (released > 0) {
            LOG.infof("%d queued dispatches claimed by lost workers wait in the queue again", released);
        }
        DispatchTransitions.Swept swept = finisher.closeLost(workerId, now, limit);
        swept.retried().forEach(this::retried);
        if (!swept.retried().isEmpty()) {
            scheduler.drain();
        }
        return swept.closed().stream().map(DispatchResult::dispatchId).toList();
    }

    /**
     * The lost attempt's container is stopped when it is on this engine (the
     * replicas share one): its result would never be read, and two attempts
     * running at once is what at-least-once allows, not what anyone wants.
     */
    private void retried(DispatchTransitions.Retried retried) {
        try (LogScope scope = LogScope.dispatch(retried.id())) {
            LOG.warnf(
                    "worker %s was lost while it ran attempt %d: attempt %d waits in the queue",
                    retried.workerId(), retried.attempt() - 1, retried.attempt());
            if (retried.containerId() != null && onThisEngine(retried)) {
                stopper.stop(retried.containerId());
            }
        }
    }

    private boolean onThisEngine(DispatchTransitions.Retried retried) {
        try {
            return inventory.managedBy(retried.workerId()).stream().anyMatch(c -> c.id().equals(retried.containerId()));
        } catch (ContainerException e) {
            LOG.warnf("could not look for the lost attempt's container: %s", e.getMessage());
            return false;
        }
    }
}
