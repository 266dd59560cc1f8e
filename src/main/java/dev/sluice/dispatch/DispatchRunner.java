package dev.sluice.dispatch;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;

import org.jboss.logging.Logger;

import com.github.dockerjava.api.command.InspectContainerResponse;

import dev.sluice.container.Attachment;
import dev.sluice.container.ContainerException;
import dev.sluice.container.ContainerLogs;
import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.ContainerSpec;
import dev.sluice.container.Labels;
import dev.sluice.container.LogRetention;
import dev.sluice.output.SecretMasker;

/**
 * Drives one dispatch to a terminal state: create the container, attach,
 * start, stream both outputs into their collectors, wait for the exit, and
 * store the result. The result is built only once both the exit status and the
 * end of the output are known. {@link #resume} takes over a dispatch whose
 * container outlived a worker restart.
 */
final class DispatchRunner {

    private static final Logger LOG = Logger.getLogger(DispatchRunner.class);

    /** What the scheduler should do with the dispatch afterwards. */
    enum Outcome {
        /** Terminal, or left for reconciliation: the slot is free. */
        DONE,
        /** The engine was unreachable before anything was created: queue it again. */
        REQUEUE
    }

    /** Told of every result stored, so it can be delivered. */
    interface FinishListener {
        void finished(DispatchResult result);
    }

    private final ContainerRuntime runtime;
    private final ContainerLogs logs;
    private final DispatchStore store;
    private final SecretVault vault;
    private final LogRetention retention;
    private final ScheduledExecutorService timer;
    private final Clock clock;
    private final String workerId;
    private final long graceMillis;
    private final FinishListener onFinish;

    DispatchRunner(ContainerRuntime runtime, ContainerLogs logs, DispatchStore store, SecretVault vault,
            LogRetention retention, ScheduledExecutorService timer, Clock clock, String workerId, long graceMillis,
            FinishListener onFinish) {
        this.runtime = runtime;
        this.logs = logs;
        this.store = store;
        this.vault = vault;
        this.retention = retention;
        this.timer = timer;
        this.clock = clock;
        this.workerId = workerId;
        this.graceMillis = graceMillis;
        this.onFinish = onFinish;
    }

    /** Runs a queued dispatch. Never throws: every failure ends as a result, or leaves the record for reconciliation. */
    Outcome run(String id, DispatchSpec spec, Execution execution) {
        try {
            if (!store.markStarting(id)) {
                return Outcome.DONE; // cancelled while queued
            }
            CrashPoint.AFTER_ACCEPT.reached();
            if (spec.secretsMissing()) {
                finish(Results.withoutOutput(id, spec, Dispatch.Status.ERROR, SECRETS_UNAVAILABLE, now()));
                return Outcome.DONE;
            }
            String containerId;
            try {
                containerId = runtime.create(containerSpec(id, spec));
            } catch (ContainerException e) {
                if (e.reason() == ContainerException.Reason.ENGINE_UNAVAILABLE && store.markQueuedAgain(id)) {
                    LOG.warnf("dispatch %s: engine unavailable, queued again: %s", id, e.getMessage());
                    return Outcome.REQUEUE;
                }
                finish(Results.withoutOutput(id, spec, Dispatch.Status.ERROR, error(e), now()));
                return Outcome.DONE;
            }
            execution.containerCreated(containerId);
            store.recordContainer(id, containerId);
            CrashPoint.AFTER_CREATE.reached();
            startAndCollect(id, spec, execution, containerId);
        } catch (StoreException e) {
            LOG.errorf(e, "dispatch %s: store failed, left for reconciliation", id);
        } catch (RuntimeException e) {
            failed(id, spec, e);
        }
        return Outcome.DONE;
    }

    /**
     * Takes over a dispatch whose container outlived a worker restart: starts
     * it if it never ran; otherwise waits for it to exit (if it still runs) and
     * reads its whole log back. The output comes from the runtime's
     * log, so the result says it was recovered.
     */
    void resume(String id, DispatchSpec spec, Execution execution, Instant storedStart, boolean cancelRequested,
            String containerId) {
        try {
            execution.containerCreated(containerId);
            InspectContainerResponse container = runtime.inspect(containerId).orElse(null);
            if (container == null) {
                finish(Results.withoutOutput(id, spec, Dispatch.Status.ERROR, CONTAINER_LOST, now()));
                return;
            }
            if ("created".equals(container.getState().getStatus())) {
                if (cancelRequested) {
                    finish(Results.withoutOutput(id, spec, Dispatch.Status.CANCELLED, null, now()));
                } else {
                    startAndCollect(id, spec, execution, containerId);
                }
                return;
            }
            Instant startedAt = storedStart != null ? storedStart : time(container.getState().getStartedAt(), now());
            store.markRunning(id, startedAt);
            Capture capture = new Capture(id, spec.stdoutCap(), spec.stderrCap());
            Attachment.StreamEnd end;
            int exitCode;
            Instant finishedAt;
            if (Boolean.TRUE.equals(container.getState().getRunning())) {
                // Wait for the exit with the timeout armed, then read the log whole: a log
                // followed while it is written can end before its last message is flushed.
                Duration elapsed = Duration.between(startedAt, now());
                execution.started(timer, Math.max(0, spec.timeout().minus(elapsed).toMillis()), runtime, graceMillis);
                if (cancelRequested) {
                    execution.stop(Execution.StopReason.CANCEL, timer, runtime, graceMillis);
                }
                exitCode = runtime.awaitExit(containerId);
                finishedAt = now();
                execution.finished();
            } else {
                Long code = container.getState().getExitCodeLong();
                exitCode = code == null ? -1 : code.intValue();
                finishedAt = time(container.getState().getFinishedAt(), now());
            }
            end = logs.replay(containerId, capture);
            if (!end.clean()) {
                LOG.warnf("dispatch %s: the runtime log could not be read whole (%s)", id, end.readFailure());
            }
            Execution.StopReason stop = cancelRequested ? Execution.StopReason.CANCEL : execution.stopReason();
            finish(result(id, spec, stop, exitCode, containerId, startedAt, finishedAt, capture, true));
        } catch (StoreException e) {
            LOG.errorf(e, "dispatch %s: store failed, left for reconciliation", id);
        } catch (ContainerException e) {
            execution.finished();
            finishQuietly(Results.withoutOutput(id, spec, Dispatch.Status.ERROR, error(e), now()));
        } catch (RuntimeException e) {
            failed(id, spec, e);
        }
    }

    private void startAndCollect(String id, DispatchSpec spec, Execution execution, String containerId) {
        if (execution.stopReason() != null) {
            finish(Results.withoutOutput(id, spec, execution.stopReason().status, null, now()));
            return;
        }
        try {
            finish(attachStartAndCollect(id, spec, execution, containerId));
        } catch (ContainerException e) {
            execution.finished();
            finish(Results.withoutOutput(id, spec, Dispatch.Status.ERROR, error(e), now()));
        }
    }

    private Results.Finished attachStartAndCollect(String id, DispatchSpec spec, Execution execution, String containerId) {
        Capture capture = new Capture(id, spec.stdoutCap(), spec.stderrCap());
        Instant startedAt;
        Attachment.StreamEnd end;
        byte[] stdin = spec.input() == null ? null : spec.input().getBytes(StandardCharsets.UTF_8);
        try (Attachment attachment = runtime.attach(containerId, stdin)) {
            runtime.start(containerId);
            startedAt = now();
            store.markRunning(id, startedAt);
            execution.started(timer, spec.timeout().toMillis(), runtime, graceMillis);
            CrashPoint.MID_RUN.reached();
            end = attachment.pump(capture);
        }
        int exitCode = runtime.awaitExit(containerId);
        Instant finishedAt = now();
        execution.finished();

        boolean recovered = false;
        if (!end.clean()) {
            // The live stream was cut (engine restart, network): the runtime's log has it all.
            LOG.warnf("dispatch %s: output stream ended early (%s); reading it back from the runtime log", id,
                    end.readFailure() != null ? end.readFailure() : "cut inside a frame");
            capture = new Capture(id, spec.stdoutCap(), spec.stderrCap());
            logs.replay(containerId, capture);
            recovered = true;
        }
        return result(id, spec, execution.stopReason(), exitCode, containerId, startedAt, finishedAt, capture, recovered);
    }

    private Results.Finished result(String id, DispatchSpec spec, Execution.StopReason stop, int exitCode,
            String containerId, Instant startedAt, Instant finishedAt, Capture capture, boolean recovered) {
        Dispatch.Status status = stop != null ? stop.status
                : exitCode == 0 ? Dispatch.Status.SUCCEEDED : Dispatch.Status.FAILED;
        SecretMasker masker = vault.maskerFor(id);
        CrashPoint.AFTER_EXIT.reached();
        return Results.of(id, spec, status, exitCode, exitError(containerId, exitCode, stop), startedAt, finishedAt,
                capture.finishStdout(masker), capture.finishStderr(masker),
                retention.possiblyRotated(capture.bytesWritten()), recovered);
    }

    /** SIGKILL from the kernel's OOM killer looks like any 137; the engine knows which it was. */
    private DispatchResult.Error exitError(String containerId, int exitCode, Execution.StopReason stop) {
        if (exitCode != 137 || stop != null) {
            return null;
        }
        boolean oom = runtime.inspect(containerId)
                .map(c -> Boolean.TRUE.equals(c.getState().getOOMKilled()))
                .orElse(false);
        return oom ? new DispatchResult.Error("out_of_memory", "the container was killed for exceeding its memory limit")
                : null;
    }

    private ContainerSpec containerSpec(String id, DispatchSpec spec) {
        Map<String, String> env = new HashMap<>(spec.env());
        if (spec.secrets() != null) {
            env.putAll(spec.secrets());
        }
        return new ContainerSpec(spec.image(), spec.command(), env, spec.workingDir(), spec.input() != null,
                Map.of(Labels.DISPATCH_ID, id, Labels.WORKER_ID, workerId), spec.memoryBytes(), spec.nanoCpus(),
                spec.pids(), spec.network());
    }

    static final DispatchResult.Error SECRETS_UNAVAILABLE = new DispatchResult.Error("secrets_unavailable",
            "the worker restarted while holding this dispatch, and secret values are never stored: it could not be "
                    + "run, or its output could not be masked");

    static final DispatchResult.Error CONTAINER_LOST = new DispatchResult.Error("container_lost",
            "the container of this dispatch is gone from the engine (the engine restarted or it was removed)");

    private static DispatchResult.Error error(ContainerException e) {
        return new DispatchResult.Error(e.reason().code(), e.getMessage());
    }

    private static Instant time(String engineTime, Instant otherwise) {
        try {
            Instant t = OffsetDateTime.parse(engineTime).toInstant();
            return t.getEpochSecond() > 0 ? t : otherwise;
        } catch (RuntimeException e) {
            return otherwise;
        }
    }

    private void failed(String id, DispatchSpec spec, RuntimeException e) {
        LOG.errorf(e, "dispatch %s: unexpected failure", id);
        finishQuietly(Results.withoutOutput(id, spec, Dispatch.Status.ERROR,
                new DispatchResult.Error("worker_error", "the worker failed while running this dispatch"), now()));
    }

    private void finish(Results.Finished finished) {
        if (store.finish(finished.result(), finished.summary())) {
            CrashPoint.AFTER_STORE.reached();
            onFinish.finished(finished.result());
        }
    }

    private void finishQuietly(Results.Finished finished) {
        try {
            finish(finished);
        } catch (RuntimeException e) {
            LOG.errorf("dispatch %s: could not store its error result: %s", finished.result().dispatchId(), e.getMessage());
        }
    }

    private Instant now() {
        return clock.instant();
    }
}
