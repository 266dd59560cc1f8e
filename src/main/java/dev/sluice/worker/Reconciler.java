package dev.sluice.worker;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import org.jboss.logging.Logger;

import dev.sluice.concurrent.LogScope;
import dev.sluice.container.ContainerInventory;
import dev.sluice.container.ManagedContainer;

/**
 * Makes the store and the engine agree again after a crash (ADR 0010). For
 * each dispatch this worker owns and is not already driving: one without a
 * container is queued again, unless it was running, and then its container
 * was lost; one whose container exists is taken over (followed, or finished
 * from its log and exit status); one with secrets cannot be taken over, since
 * its output could not be masked, so its container is stopped and it ends as
 * {@code secrets_unavailable}. The unfinished dispatches of workers whose
 * lease lapsed are closed as {@code worker_lost}.
 *
 * <p>The decisions are made here; carrying them out is the dispatch
 * lifecycle's, through {@link Lifecycle}.
 */
public final class Reconciler {

    private static final Logger LOG = Logger.getLogger(Reconciler.class);

    /** Dispatches younger than this may be between their insert and their queueing: left alone. */
    static final Duration SETTLING = Duration.ofSeconds(30);

    /** Closing lost workers' dispatches goes in batches of this many, one transaction each. */
    static final int LOST_BATCH = 100;

    /** A dispatch this worker owns that is not terminal. */
    public record Unfinished(String id, boolean running, String containerId, boolean hasSecrets, Instant createdAt) {}

    /** What reconciliation asks of the dispatch lifecycle. */
    public interface Lifecycle {

        /**
         * This worker's dispatches that are not terminal and that it does not
         * drive (queued or in flight here), oldest first; the two are decided
         * at one moment, so a dispatch being claimed meanwhile is not among them.
         */
        List<Unfinished> undriven(String workerId);

        /** Queues a dispatch that has no container again; one that was starting goes back to queued. */
        void requeue(String dispatchId);

        /** Ends a running dispatch whose container is gone as {@code container_lost}. */
        void closeContainerLost(String dispatchId);

        /** Stops the container of a dispatch whose output could not be masked, and ends it as {@code secrets_unavailable}. */
        void abandon(String dispatchId, String containerId);

        /** Takes over a dispatch whose container outlived the worker: starts it, follows it or reads it back. */
        void resume(String dispatchId, String containerId);

        /** Closes up to {@code limit} unfinished dispatches of workers whose lease lapsed before {@code now}; returns their ids. */
        List<String> closeLost(String workerId, Instant now, int limit);
    }

    private final Lifecycle lifecycle;
    private final ContainerInventory containers;
    private final Clock clock;
    private final String workerId;

    public Reconciler(Lifecycle lifecycle, ContainerInventory containers, Clock clock, String workerId) {
        this.lifecycle = lifecycle;
        this.containers = containers;
        this.clock = clock;
        this.workerId = workerId;
    }

    /**
     * Takes up this worker's dispatches that nothing drives and that were
     * created before {@code instanceStart} (a previous instance's, however
     * young) or before the settling period.
     */
    public int reconcileOwn(Instant instanceStart) {
        Instant settled = clock.instant().minus(SETTLING);
        return reconcileCreatedBefore(instanceStart.isAfter(settled) ? instanceStart : settled);
    }

    private int reconcileCreatedBefore(Instant settled) {
        List<Unfinished> undriven = lifecycle.undriven(workerId).stream()
                .filter(d -> !d.createdAt().isAfter(settled))
                .toList();
        if (undriven.isEmpty()) {
            // Nothing to match with containers: the engine is not asked, so a worker that has nothing to take up
            // starts while its engine is down, and is merely not ready.
            return 0;
        }
        Map<String, List<ManagedContainer>> byDispatch =
                containers.managedBy(workerId).stream().collect(Collectors.groupingBy(ManagedContainer::dispatchId));
        int taken = 0;
        for (Unfinished d : undriven) {
            takeUp(d, container(d, byDispatch.getOrDefault(d.id(), List.of())));
            taken++;
        }
        if (taken > 0) {
            LOG.infof("reconciled %d dispatches of worker %s", taken, workerId);
        }
        return taken;
    }

    private void takeUp(Unfinished d, Optional<ManagedContainer> container) {
        try (LogScope scope = LogScope.dispatch(d.id())) {
            if (container.isEmpty()) {
                if (d.running()) {
                    lifecycle.closeContainerLost(d.id());
                } else {
                    lifecycle.requeue(d.id());
                }
            } else if (d.hasSecrets()) {
                lifecycle.abandon(d.id(), container.get().id());
            } else {
                lifecycle.resume(d.id(), container.get().id());
            }
        }
    }

    /** The dispatch's container: the one the record names, else the newest with its label. */
    private static Optional<ManagedContainer> container(Unfinished d, List<ManagedContainer> labelled) {
        return labelled.stream()
                .filter(c -> c.id().equals(d.containerId()))
                .findFirst()
                .or(() -> labelled.stream().max(Comparator.comparing(ManagedContainer::created)));
    }

    /** Closes the unfinished dispatches of workers whose lease lapsed. */
    public int sweepLost() {
        List<String> closed = lifecycle.closeLost(workerId, clock.instant(), LOST_BATCH);
        if (!closed.isEmpty()) {
            LOG.warnf("closed %d dispatches of lost workers: %s", closed.size(), closed);
        }
        return closed.size();
    }
}
