package dev.sluice.run;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.sluice.container.ContainerState;
import dev.sluice.container.engine.ContainerException;
import dev.sluice.record.DispatchResult;
import dev.sluice.record.DispatchSpec;
import dev.sluice.record.DispatchStore;
import dev.sluice.record.SecretVault;
import dev.sluice.store.StoreException;
import dev.sluice.trace.Phase;
import dev.sluice.trace.SpanNames;
import dev.sluice.trace.Tracing;

/**
 * Drives one dispatch to a terminal state through three stages, in order:
 * the {@link LaunchStage} claims it and creates its container, the
 * {@link CollectStage} attaches before the launch starts it, streams both
 * outputs into their collectors, waits for the exit and reads back what the
 * result is built from, and the {@link FinishStage} builds the result and ends
 * the dispatch through the {@link Finisher}. The result is built only once
 * both the exit status and the end of the output are known. {@link #resume}
 * takes over a dispatch whose container outlived a worker restart.
 */
@ApplicationScoped
class DispatchRunner implements DispatchScheduler.Runner {

    private static final Logger LOG = Logger.getLogger(DispatchRunner.class);

    private final LaunchStage launch;
    private final CollectStage collect;
    private final FinishStage finish;
    private final SecretVault vault;
    private final Tracing tracing;

    @Inject
    DispatchRunner(LaunchStage launch, CollectStage collect, FinishStage finish, SecretVault vault, Tracing tracing) {
        this.launch = launch;
        this.collect = collect;
        this.finish = finish;
        this.vault = vault;
        this.tracing = tracing;
    }

    /**
     * Runs a queued dispatch. Never throws: every failure ends as a result, or leaves the record for reconciliation.
     * Its request comes back from the store here, with the secrets the queue kept (ADR 0057); a store that fails to
     * give it leaves the dispatch starting, for reconciliation to queue again, as any store failure on the way does.
     */
    @Override
    public DispatchScheduler.Outcome run(DispatchScheduler.Queued queued, Execution execution) {
        String id = queued.id();
        try {
            DispatchStore.ToRun stored = launch.claim(id).orElse(null);
            if (stored == null) {
                return DispatchScheduler.Outcome.DONE;
            }
            try (Phase trace = tracing.continued(stored.traceparent())) {
                if (!queued.imagePulled()) { // after a pull its wait is the pull's span
                    tracing.startedAt(SpanNames.QUEUE_WAIT, queued.queuedAt()).close();
                }
                return run(id, stored.spec().withSecrets(queued.secrets()), execution, queued);
            }
        } catch (RuntimeException e) {
            // Without its request there is no result to build: the record stays for reconciliation.
            LOG.error(
                    "could not read it from the store, left for reconciliation",
                    vault.maskerFor(id).mask(e));
            return DispatchScheduler.Outcome.DONE;
        }
    }

    private DispatchScheduler.Outcome run(
            String id, DispatchSpec spec, Execution execution, DispatchScheduler.Queued queued) {
        try {
            LaunchStage.Launched launched = launch.create(id, spec, execution, queued);
            if (launched.refusal() != null) {
                finish.withError(id, spec, launched.refusal(), launched.imageDigest());
            } else if (launched.containerId() != null) {
                startAndCollect(id, spec, execution, launched.containerId());
            }
            return launched.outcome();
        } catch (StoreException e) {
            LOG.error("store failed, left for reconciliation", e);
        } catch (RuntimeException e) {
            finish.failed(id, spec, e);
        }
        return DispatchScheduler.Outcome.DONE;
    }

    /**
     * Takes over a dispatch whose container outlived a worker restart: starts
     * it if it never ran; otherwise waits for it to exit (if it still runs) and
     * reads its whole log back. The output comes from the runtime's log, so the
     * result says it was recovered.
     */
    void resume(
            String id,
            DispatchSpec spec,
            Execution execution,
            Instant storedStart,
            boolean cancelRequested,
            String containerId) {
        try {
            ContainerState container = launch.takeOver(spec, execution, containerId);
            if (container == null) {
                finish.withError(id, spec, Errors.CONTAINER_LOST, null);
            } else if (container.created()) {
                startTakenOver(id, spec, execution, cancelRequested, containerId);
            } else {
                Instant startedAt = launch.runningSince(id, storedStart, container);
                finish.captured(
                        collect.takenOver(id, spec, execution, cancelRequested, containerId, container, startedAt));
            }
        } catch (StoreException e) {
            LOG.error("store failed, left for reconciliation", e);
        } catch (ContainerException e) {
            execution.finished();
            finish.withErrorQuietly(id, spec, Errors.of(e));
        } catch (RuntimeException e) {
            finish.failed(id, spec, e);
        }
    }

    /** A taken-over container that never ran: started now, unless it was cancelled meanwhile. */
    private void startTakenOver(
            String id, DispatchSpec spec, Execution execution, boolean cancelRequested, String containerId) {
        if (cancelRequested) {
            finish.stopped(id, spec, Execution.StopReason.CANCEL);
            return;
        }
        DispatchResult.Error refused = launch.prepareAgain(id, spec, containerId);
        if (refused != null) {
            finish.withError(id, spec, refused, null);
            return;
        }
        startAndCollect(id, spec, execution, containerId);
    }

    private void startAndCollect(String id, DispatchSpec spec, Execution execution, String containerId) {
        if (execution.stopReason() != null) {
            finish.stopped(id, spec, execution.stopReason());
            return;
        }
        try {
            // Attached before it starts: nothing it writes is missed.
            CollectStage.Streamed streamed;
            try (CollectStage.Attached attached = collect.attach(id, spec, containerId)) {
                Instant startedAt = launch.start(id, spec, execution, containerId, attached.idle());
                streamed = attached.pump(startedAt);
            }
            finish.captured(collect.afterExit(id, spec, execution, containerId, streamed));
        } catch (ContainerException e) {
            execution.finished();
            finish.withError(id, spec, Errors.of(e), execution.imageDigest());
        }
    }
}
