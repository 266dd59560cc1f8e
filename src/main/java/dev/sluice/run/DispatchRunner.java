package dev.sluice.run;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

import dev.sluice.artifact.ArtifactCollection;
import dev.sluice.artifact.Artifacts;
import dev.sluice.container.ContainerLogs;
import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.ContainerState;
import dev.sluice.container.engine.ContainerException;
import dev.sluice.container.engine.OutFile;
import dev.sluice.container.files.WitnessRecord;
import dev.sluice.container.sandbox.ContainerSpec;
import dev.sluice.container.sandbox.Labels;
import dev.sluice.container.stream.Attachment;
import dev.sluice.container.stream.OutputSink;
import dev.sluice.image.ImageName;
import dev.sluice.image.ImageResolver;
import dev.sluice.logs.LogHolding;
import dev.sluice.output.CapturedOutput;
import dev.sluice.output.SecretMasker;
import dev.sluice.output.StreamWitness;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchKey;
import dev.sluice.record.DispatchLinks;
import dev.sluice.record.DispatchPulling;
import dev.sluice.record.DispatchResult;
import dev.sluice.record.DispatchSpec;
import dev.sluice.record.DispatchStore;
import dev.sluice.record.DispatchTransitions;
import dev.sluice.record.Ending;
import dev.sluice.record.SecretVault;
import dev.sluice.store.StoreException;
import dev.sluice.trace.Phase;
import dev.sluice.trace.SpanNames;
import dev.sluice.trace.Tracing;
import dev.sluice.worker.CrashPoint;
import dev.sluice.workspace.WorkspaceRefused;
import dev.sluice.workspace.Workspaces;

/**
 * Drives one dispatch to a terminal state: create the container, attach,
 * start, stream both outputs into their collectors, wait for the exit, and
 * end it through the {@link Finisher}. The result is built only once both the
 * exit status and the end of the output are known. {@link #resume} takes over
 * a dispatch whose container outlived a worker restart.
 */
final class DispatchRunner implements DispatchScheduler.Runner {

    private static final Logger LOG = Logger.getLogger(DispatchRunner.class);

    private final ContainerRuntime runtime;
    private final ImageResolver images;
    private final Consumer<DispatchPulling> pulling;
    private final AgentReports reports;
    private final ArtifactCollection artifacts;
    private final ContainerLogs logs;
    private final JsonDocuments documents;
    private final DispatchTransitions transitions;
    private final DispatchStore store;
    private final Finisher finisher;
    private final SecretVault vault;
    private final LogHolding holding;
    private final FinishingBudget budget;
    private final OutputTap tap;
    private final Clock clock;
    /** Whose claim a dispatch must carry for this worker to start it. */
    private final String workerId;
    /** The labels every container of this worker carries: who runs it, and which store holds its record. */
    private final Map<String, String> ownerLabels;

    private final Workspaces workspaces;
    private final Tracing tracing;

    DispatchRunner(
            ContainerRuntime runtime,
            ImageResolver images,
            Consumer<DispatchPulling> pulling,
            AgentReports reports,
            ArtifactCollection artifacts,
            ContainerLogs logs,
            JsonDocuments documents,
            DispatchTransitions transitions,
            DispatchStore store,
            Finisher finisher,
            SecretVault vault,
            LogHolding holding,
            FinishingBudget budget,
            OutputTap tap,
            Clock clock,
            String workerId,
            String storeId,
            Workspaces workspaces,
            Tracing tracing) {
        this.runtime = runtime;
        this.images = images;
        this.pulling = pulling;
        this.reports = reports;
        this.artifacts = artifacts;
        this.logs = logs;
        this.documents = documents;
        this.transitions = transitions;
        this.store = store;
        this.finisher = finisher;
        this.vault = vault;
        this.holding = holding;
        this.budget = budget;
        this.tap = tap;
        this.clock = clock;
        this.workerId = workerId;
        this.ownerLabels = Map.of(Labels.WORKER_ID, workerId, Labels.STORE_ID, storeId);
        this.workspaces = workspaces;
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
            if (!transitions.markStarting(id, workerId)) {
                return DispatchScheduler.Outcome.DONE; // cancelled while queued, or claimed by another meanwhile
            }
            CrashPoint.AFTER_ACCEPT.reached();
            DispatchStore.ToRun stored = store.toRun(id).orElse(null);
            if (stored == null) {
                LOG.error("its record is gone: nothing to run");
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
            if (spec.secretsMissing()) {
                finisher.finish(withoutOutput(id, spec, Errors.SECRETS_UNAVAILABLE));
                return DispatchScheduler.Outcome.DONE;
            }
            if (queued.pullFailure() != null) {
                finisher.finish(withoutOutput(id, spec, pullFailed(queued.pullFailure())));
                return DispatchScheduler.Outcome.DONE;
            }
            String containerId;
            try {
                ImageResolver.Resolution image = images.resolve(DispatchKey.tenantOf(id), spec, queued.imagePulled());
                if (image instanceof ImageResolver.Pull pull) {
                    return awaitPull(id, spec, pull);
                }
                ImageResolver.Ready ready = (ImageResolver.Ready) image;
                execution.imageResolved(ready.digest());
                // After the pull: an archive fetched for a dispatch that goes back to wait for its image is wasted.
                try (Workspaces.Prepared workspace =
                                spec.workspace() == null ? null : workspaces.prepare(id, spec.workspace());
                        Phase span = tracing.start(SpanNames.CONTAINER_CREATE)
                                .attribute(SpanNames.IMAGE_DIGEST, ready.digest())) {
                    containerId = runtime.create(
                            containerSpec(id, spec, workspace == null ? null : workspace.tar()), ready.facts());
                    span.attribute(SpanNames.CONTAINER_ID, containerId);
                }
            } catch (ImageResolver.Refused e) {
                finisher.finish(withoutOutput(id, spec, e.error).withImageDigest(e.digest));
                return DispatchScheduler.Outcome.DONE;
            } catch (WorkspaceRefused e) {
                finisher.finish(withoutOutput(id, spec, Errors.workspaceUnavailable(e.getMessage()))
                        .withImageDigest(execution.imageDigest()));
                return DispatchScheduler.Outcome.DONE;
            } catch (ContainerException e) {
                // A create that timed out was sent: the engine may still carry it out, and the dispatch has
                // waited on the engine as long as it may (ADR 0016). It ends; repeating it could make a second
                // container. A create that never reached the engine goes back to the queue.
                if (e.reason() == ContainerException.Reason.ENGINE_UNAVAILABLE
                        && !e.timedOut()
                        && transitions.markQueuedAgain(id)) {
                    LOG.warnf(
                            "engine unavailable, queued again: %s",
                            vault.maskerFor(id).mask(e.getMessage()));
                    return DispatchScheduler.Outcome.REQUEUE;
                }
                finisher.finish(withoutOutput(id, spec, Errors.of(e)).withImageDigest(execution.imageDigest()));
                return DispatchScheduler.Outcome.DONE;
            }
            execution.containerCreated(containerId);
            transitions.recordContainer(id, containerId);
            CrashPoint.AFTER_CREATE.reached();
            startAndCollect(id, spec, execution, containerId);
        } catch (StoreException e) {
            LOG.error("store failed, left for reconciliation", e);
        } catch (RuntimeException e) {
            failed(id, spec, e);
        }
        return DispatchScheduler.Outcome.DONE;
    }

    /**
     * Back to the queue while its image is pulled, holding no slot (ADR 0059);
     * a dispatch cancelled meanwhile is left to its cancellation.
     */
    private DispatchScheduler.Outcome awaitPull(String id, DispatchSpec spec, ImageResolver.Pull pull) {
        if (!transitions.markQueuedAgain(id)) {
            return DispatchScheduler.Outcome.DONE;
        }
        LOG.infof("waiting for image %s to be pulled", spec.image());
        pulling.accept(new DispatchPulling(id, spec.image()));
        return DispatchScheduler.Outcome.awaitImage(pull.pull());
    }

    /** Why the pull it waited for failed: its kind in our words, never the engine's text (ADR 0059, 0075). */
    private static DispatchResult.Error pullFailed(RuntimeException failure) {
        return failure instanceof ContainerException e ? Errors.of(e) : Errors.WORKER_ERROR;
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
            LOG.infof("taking over container %.12s", containerId);
            execution.containerCreated(containerId);
            execution.imageResolved(digestOf(spec));
            ContainerState container = runtime.inspect(containerId).orElse(null);
            if (container == null) {
                finisher.finish(withoutOutput(id, spec, Errors.CONTAINER_LOST));
                return;
            }
            if (container.created()) {
                if (cancelRequested) {
                    finisher.finish(Ending.withoutOutput(id, spec, Dispatch.Status.CANCELLED, null, now()));
                } else if (spec.workspace() != null) {
                    // It may have stopped before its workspace was placed: placed again, as at the create.
                    try (Workspaces.Prepared workspace = workspaces.prepare(id, spec.workspace())) {
                        runtime.prepareAgain(containerId, workspace.tar());
                    } catch (WorkspaceRefused e) {
                        finisher.finish(withoutOutput(id, spec, Errors.workspaceUnavailable(e.getMessage())));
                        return;
                    }
                    startAndCollect(id, spec, execution, containerId);
                } else {
                    runtime.prepareAgain(containerId);
                    startAndCollect(id, spec, execution, containerId);
                }
                return;
            }
            Instant startedAt =
                    storedStart != null ? storedStart : container.startedAt() != null ? container.startedAt() : now();
            transitions.markRunning(id, startedAt);
            Capture capture = capture(id, spec);
            int exitCode;
            Instant finishedAt;
            if (container.running()) {
                // Wait for the exit with the timeout armed, then read the log whole: a log
                // followed while it is written can end before its last message is flushed.
                execution.started(max(Duration.ZERO, spec.timeout().minus(Duration.between(startedAt, now()))));
                if (cancelRequested) {
                    execution.stop(Execution.StopReason.CANCEL);
                }
                exitCode = runtime.awaitExit(containerId);
                finishedAt = now();
                execution.finished();
            } else {
                exitCode = container.exitCode() == null ? -1 : container.exitCode();
                finishedAt = container.finishedAt() != null ? container.finishedAt() : now();
            }
            Attachment.StreamEnd end = logs.replay(containerId, capture);
            if (!end.clean()) {
                LOG.warnf("the runtime log could not be read whole (%s)", end.readFailure());
            }
            Execution.StopReason stop = cancelRequested ? Execution.StopReason.CANCEL : execution.stopReason();
            finishCaptured(
                    id,
                    spec,
                    stop,
                    exitCode,
                    containerId,
                    startedAt,
                    finishedAt,
                    capture,
                    true,
                    execution.imageDigest());
        } catch (StoreException e) {
            LOG.error("store failed, left for reconciliation", e);
        } catch (ContainerException e) {
            execution.finished();
            finishQuietly(withoutOutput(id, spec, Errors.of(e)));
        } catch (RuntimeException e) {
            failed(id, spec, e);
        }
    }

    /** The content digest of a taken-over dispatch's image, as the engine holds it now; null when unknown. */
    private String digestOf(DispatchSpec spec) {
        try {
            return runtime.findImage(spec.image())
                    .flatMap(f -> ImageName.parse(spec.image()).digestIn(f.repoDigests()))
                    .orElse(null);
        } catch (ContainerException e) {
            return null;
        }
    }

    private void startAndCollect(String id, DispatchSpec spec, Execution execution, String containerId) {
        if (execution.stopReason() != null) {
            finisher.finish(Ending.withoutOutput(id, spec, execution.stopReason().status, null, now()));
            return;
        }
        try {
            attachStartAndCollect(id, spec, execution, containerId);
        } catch (ContainerException e) {
            execution.finished();
            finisher.finish(withoutOutput(id, spec, Errors.of(e)).withImageDigest(execution.imageDigest()));
        }
    }

    private void attachStartAndCollect(String id, DispatchSpec spec, Execution execution, String containerId) {
        IdleWatch idle = spec.idleTimeout() == null ? null : new IdleWatch(spec.idleTimeout(), clock);
        SecretMasker masker = vault.maskerFor(id);
        Capture capture = new Capture(id, spec, masker, OutputSink.both(idle, tap.open(id, masker)));
        Instant startedAt;
        Attachment.StreamEnd end;
        byte[] stdin = spec.input() == null ? null : spec.input().getBytes(StandardCharsets.UTF_8);
        try (Attachment attachment = runtime.attach(containerId, stdin)) {
            try (Phase span = tracing.start(SpanNames.CONTAINER_START)) {
                runtime.start(containerId);
            }
            startedAt = now();
            transitions.markRunning(id, startedAt);
            LOG.infof("running in container %.12s", containerId);
            execution.started(spec.timeout());
            if (idle != null) {
                execution.watchIdle(idle);
            }
            CrashPoint.MID_RUN.reached();
            end = attachment.pump(capture);
        }
        int exitCode = runtime.awaitExit(containerId);
        Instant finishedAt = now();
        execution.finished();
        tracing.startedAt(SpanNames.RUN, startedAt)
                .attribute(SpanNames.EXIT_CODE, exitCode)
                .attribute(SpanNames.CONTAINER_ID, containerId)
                .close();

        boolean recovered = false;
        if (!end.clean()) {
            // The live stream was cut (engine restart, network): the runtime's log has it all.
            LOG.warnf(
                    "output stream ended early (%s); reading it back from the runtime log",
                    end.readFailure() != null ? end.readFailure() : "cut inside a frame");
            capture = capture(id, spec);
            logs.replay(containerId, capture);
            recovered = true;
        }
        finishCaptured(
                id,
                spec,
                execution.stopReason(),
                exitCode,
                containerId,
                startedAt,
                finishedAt,
                capture,
                recovered,
                execution.imageDigest());
    }

    /**
     * Builds the result from what was captured, and the agent's report, and
     * ends the dispatch with it, within the memory budget for results being
     * finished: the bounded texts, the result's JSON and its stored copy exist
     * only for this moment, and fifty dispatches that end together must not
     * need them all at once. The report file and the artifacts are read
     * before, outside the budget: they wait on the engine, and are bounded on
     * their own. A stream asked for as json is finished from the runtime's
     * log, within the budget ({@link JsonDocuments}).
     */
    private void finishCaptured(
            String id,
            DispatchSpec spec,
            Execution.StopReason stop,
            int exitCode,
            String containerId,
            Instant startedAt,
            Instant finishedAt,
            Capture capture,
            boolean recovered,
            String imageDigest) {
        CrashPoint.AFTER_EXIT.reached();
        SecretMasker masker = vault.maskerFor(id);
        Collected collected = collect(id, stop, exitCode, containerId, capture, recovered);
        DispatchResult.AvailableFrom availableFrom = collected.availableFrom();
        ContainerState exited = collected.exited();
        Exit exit = collected.exit();
        long memory = capture.bytesHeld() * FinishingBudget.COPIES + documents.memory(spec, capture);
        budget.within(memory, () -> {
            CapturedOutput stdout = documents.finish(
                    capture.finishStdout(availableFrom), spec, true, containerId, capture.nonce(), masker);
            CapturedOutput stderr = documents.finish(
                    capture.finishStderr(availableFrom), spec, false, containerId, capture.nonce(), masker);
            return finisher.finish(Ending.of(id, spec)
                    .ended(exit.status(), exit.code(), exit.error())
                    .ran(startedAt, finishedAt)
                    .under(exited == null ? null : exited.runtime())
                    .output(new Ending.Output(stdout, stderr, availableFrom, recovered, capture.nonce()))
                    .handover(reports.reading(collected.reportFile(), stdout.text(), masker), collected.kept())
                    .build()
                    .withImageDigest(imageDigest));
        });
    }

    /** What is read back from the engine after the exit, before the result is built. */
    private record Collected(
            OutFile reportFile,
            DispatchResult.AvailableFrom availableFrom,
            ContainerState exited,
            Exit exit,
            Artifacts kept) {}

    private Collected collect(
            String id,
            Execution.StopReason stop,
            int exitCode,
            String containerId,
            Capture capture,
            boolean recovered) {
        try (Phase span = tracing.start(SpanNames.COLLECT)) {
            OutFile reportFile = reports.file(containerId);
            // Counting what the runtime still holds reads the log back: outside the budget, like the report.
            // It counts what the runtime received: an end restored from the witness below is not in its log.
            DispatchResult.AvailableFrom availableFrom = holding.atFinish(
                    containerId,
                    capture.bytesWritten(true),
                    capture.bytesWritten(false),
                    recovered ? LogHolding.UNKNOWN : capture.jsonFileLogBound());
            // Once per dispatch, after its exit: how the kernel ended it, the runtime the engine ran it under,
            // and the key its witness's record must carry.
            ContainerState exited = runtime.inspect(containerId).orElse(null);
            WitnessRecord witnessed = exited == null
                    ? WitnessRecord.unusable(StreamWitness.MISSING, "the container was gone before its record was read")
                    : runtime.readWitness(containerId, exited);
            if ("timeout".equals(witnessed.drain())) {
                LOG.warnf(
                        "the engine had not read all of the output when the witness's drain timeout ran out (%s)",
                        "sluice.container.witness-drain-timeout");
            }
            if (StreamWitness.TAMPERED.equals(witnessed.reason())) {
                LOG.warnf(
                        "the witness's record of container %.12s is not believed: %s", containerId, witnessed.detail());
            }
            capture.witness(witnessed, ofStdout -> runtime.readWitnessTail(containerId, ofStdout));
            Exit exit = exit(exited, exitCode, stop, witnessed, capture);
            Artifacts kept = artifacts.collect(id, containerId, name -> DispatchLinks.artifact(id, name));
            return new Collected(reportFile, availableFrom, exited, exit, kept);
        }
    }

    /** Collectors for a dispatch's output, masking its secrets as they go (into the digests) and in the result. */
    private Capture capture(String id, DispatchSpec spec) {
        return new Capture(id, spec, vault.maskerFor(id));
    }

    /** How the dispatch ended: its status, the exit code it reports, and why, when not by the process's exit alone. */
    private record Exit(Dispatch.Status status, Integer code, DispatchResult.Error error) {}

    /**
     * The status from the stop reason or the exit code, unless the witness
     * says the command never ran, or that bytes the process wrote are missing:
     * a process that ran to its exit is presented as having done so only with
     * all it wrote (ADR 0045). A stopped one keeps its stop's status.
     */
    private Exit exit(
            ContainerState exited, int exitCode, Execution.StopReason stop, WitnessRecord witnessed, Capture capture) {
        if (stop != null) {
            return new Exit(stop.status, exitCode, exitError(exited, exitCode, stop));
        }
        if (witnessed.execErrno() != 0) {
            return new Exit(Dispatch.Status.ERROR, null, Errors.execFailed(witnessed.execErrno()));
        }
        if (capture.incomplete()) {
            return new Exit(
                    Dispatch.Status.ERROR,
                    exitCode,
                    Errors.outputIncomplete("exited " + exitCode, capture.witness(true), capture.witness(false)));
        }
        return new Exit(
                exitCode == 0 ? Dispatch.Status.SUCCEEDED : Dispatch.Status.FAILED,
                exitCode,
                exitError(exited, exitCode, null));
    }

    /** SIGKILL from the kernel's OOM killer looks like any 137; the engine knows which it was. */
    private static DispatchResult.Error exitError(ContainerState exited, int exitCode, Execution.StopReason stop) {
        if (stop == Execution.StopReason.IDLE) {
            return Errors.IDLE;
        }
        if (exitCode != 137 || stop != null) {
            return null;
        }
        return exited != null && exited.oomKilled() ? Errors.OUT_OF_MEMORY : null;
    }

    private ContainerSpec containerSpec(String id, DispatchSpec spec, Path workspace) {
        Map<String, String> env = new HashMap<>(spec.env());
        if (spec.secrets() != null) {
            env.putAll(spec.secrets());
        }
        return new ContainerSpec(
                spec.image(),
                spec.command(),
                env,
                spec.workingDir(),
                spec.input() != null,
                labels(id),
                spec.memoryBytes(),
                spec.nanoCpus(),
                spec.pids(),
                spec.network(),
                spec.runtime(),
                workspace);
    }

    private Map<String, String> labels(String id) {
        Map<String, String> labels = new HashMap<>(ownerLabels);
        labels.put(Labels.DISPATCH_ID, id);
        labels.put(Labels.TENANT, DispatchKey.tenantOf(id));
        return labels;
    }

    private void failed(String id, DispatchSpec spec, RuntimeException e) {
        LOG.error("unexpected failure", vault.maskerFor(id).mask(e));
        finishQuietly(withoutOutput(id, spec, Errors.WORKER_ERROR));
    }

    private void finishQuietly(Ending ending) {
        try {
            finisher.finish(ending);
        } catch (RuntimeException e) {
            LOG.errorf(
                    "could not store its error result: %s",
                    vault.maskerFor(ending.id()).mask(e.getMessage()));
        }
    }

    /** An error result; its message masked, since an engine's message may quote what the dispatch gave it. */
    private Ending withoutOutput(String id, DispatchSpec spec, DispatchResult.Error error) {
        DispatchResult.Error masked =
                new DispatchResult.Error(error.code(), vault.maskerFor(id).mask(error.message()));
        return Ending.withoutOutput(id, spec, Dispatch.Status.ERROR, masked, now());
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private Instant now() {
        return clock.instant();
    }
}
