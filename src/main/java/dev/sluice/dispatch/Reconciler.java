package dev.sluice.dispatch;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.jboss.logging.Logger;

import dev.sluice.container.ContainerException;
import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.ManagedContainer;

/**
 * Makes the store and the engine agree again after a crash (ADR 0010). For
 * each dispatch this worker owns and is not already driving: a queued one is
 * queued again; one that was starting is started (or queued again if its
 * container was never created); one whose container runs is followed from the
 * runtime's log; one whose container exited is finished from its log and exit
 * status; one whose container is gone ends as {@code container_lost}. A
 * dispatch with secrets cannot be taken over (its output could not be masked):
 * its container is stopped and it ends as {@code secrets_unavailable}. The
 * unfinished dispatches of workers whose lease lapsed end as
 * {@code worker_lost}.
 */
final class Reconciler {

    private static final Logger LOG = Logger.getLogger(Reconciler.class);

    /** Dispatches younger than this may be between their insert and their queueing: left alone. */
    private static final Duration SETTLING = Duration.ofSeconds(30);

    static final DispatchResult.Error WORKER_LOST = new DispatchResult.Error("worker_lost",
            "the worker running this dispatch stopped renewing its lease; its container ran on that worker's engine");

    private final DispatchStore store;
    private final DispatchScheduler scheduler;
    private final DispatchRunner runner;
    private final ContainerRuntime runtime;
    private final ScheduledExecutorService timer;
    private final Clock clock;
    private final String workerId;
    private final long graceMillis;
    private final DispatchRunner.FinishListener onFinish;

    Reconciler(DispatchStore store, DispatchScheduler scheduler, DispatchRunner runner, ContainerRuntime runtime,
            ScheduledExecutorService timer, Clock clock, String workerId, long graceMillis,
            DispatchRunner.FinishListener onFinish) {
        this.store = store;
        this.scheduler = scheduler;
        this.runner = runner;
        this.runtime = runtime;
        this.timer = timer;
        this.clock = clock;
        this.workerId = workerId;
        this.graceMillis = graceMillis;
        this.onFinish = onFinish;
    }

    /**
     * Takes up this worker's dispatches that nothing drives. At start every one
     * qualifies; later, only those older than a settling period.
     */
    int reconcileOwn(boolean atStart) {
        Instant settled = clock.instant().minus(atStart ? Duration.ZERO : SETTLING);
        Map<String, List<ManagedContainer>> containers = runtime.managed().stream()
                .filter(c -> workerId.equals(c.workerId()))
                .collect(Collectors.groupingBy(ManagedContainer::dispatchId));
        int taken = 0;
        for (DispatchStore.Unfinished d : store.unfinished(workerId)) {
            if (scheduler.tracks(d.id()) || d.createdAt().isAfter(settled)) {
                continue;
            }
            Optional<DispatchSpec> spec = store.spec(d.id());
            if (spec.isEmpty()) {
                continue;
            }
            takeUp(d, spec.get(), container(d, containers.getOrDefault(d.id(), List.of())));
            taken++;
        }
        if (taken > 0) {
            LOG.infof("reconciled %d dispatches of worker %s", taken, workerId);
        }
        return taken;
    }

    private void takeUp(DispatchStore.Unfinished d, DispatchSpec spec, Optional<ManagedContainer> container) {
        if (container.isEmpty()) {
            if (d.status() == Dispatch.Status.RUNNING) {
                finish(Results.withoutOutput(d.id(), spec, Dispatch.Status.ERROR, DispatchRunner.CONTAINER_LOST,
                        clock.instant()));
                return;
            }
            if (d.status() == Dispatch.Status.STARTING) {
                store.markQueuedAgain(d.id());
            }
            // Queued again; the runner ends it as secrets_unavailable if its secrets were lost.
            if (!scheduler.resubmit(d.id(), spec, d.createdAt())) {
                LOG.warnf("dispatch %s: no room in the queue yet; tried again at the next reconciliation", d.id());
            }
            return;
        }
        String containerId = container.get().id();
        if (d.hasSecrets()) {
            stop(containerId);
            finish(Results.withoutOutput(d.id(), spec, Dispatch.Status.ERROR, DispatchRunner.SECRETS_UNAVAILABLE,
                    clock.instant()));
            return;
        }
        scheduler.adopt(d.id(), execution -> runner.resume(d.id(), spec, execution, d.startedAt(),
                d.cancelRequested(), containerId));
    }

    /** The dispatch's container: the one the record names, else the newest with its label. */
    private static Optional<ManagedContainer> container(DispatchStore.Unfinished d, List<ManagedContainer> labelled) {
        return labelled.stream().filter(c -> c.id().equals(d.containerId())).findFirst()
                .or(() -> labelled.stream().max(Comparator.comparing(ManagedContainer::created)));
    }

    private void stop(String containerId) {
        try {
            runtime.signal(containerId, "SIGTERM");
            timer.schedule(() -> {
                try {
                    runtime.signal(containerId, "SIGKILL");
                } catch (ContainerException e) {
                    LOG.warnf("container %s: SIGKILL failed: %s", containerId, e.getMessage());
                }
            }, graceMillis, TimeUnit.MILLISECONDS);
        } catch (ContainerException e) {
            LOG.warnf("container %s: SIGTERM failed: %s", containerId, e.getMessage());
        }
    }

    /** Closes the unfinished dispatches of workers whose lease lapsed. */
    int sweepLost() {
        Instant now = clock.instant();
        List<String> closed = store.closeLost(workerId, now, 100, lost -> Results.of(lost.id(), lost.spec(),
                Dispatch.Status.ERROR, null, WORKER_LOST, lost.startedAt(), now, Results.EMPTY, Results.EMPTY, false,
                false));
        for (String id : closed) {
            store.find(id).map(Dispatch::result).ifPresent(onFinish::finished);
        }
        if (!closed.isEmpty()) {
            LOG.warnf("closed %d dispatches of lost workers: %s", closed.size(), closed);
        }
        return closed.size();
    }

    private void finish(Results.Finished finished) {
        if (store.finish(finished.result(), finished.summary())) {
            onFinish.finished(finished.result());
        }
    }
}
