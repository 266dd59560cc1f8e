package dev.sluice.run;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.sluice.artifact.ArtifactCollection;
import dev.sluice.artifact.Artifacts;
import dev.sluice.container.ContainerLogs;
import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.ContainerState;
import dev.sluice.container.engine.OutFile;
import dev.sluice.container.files.WitnessRecord;
import dev.sluice.container.stream.Attachment;
import dev.sluice.container.stream.OutputSink;
import dev.sluice.logs.LogHolding;
import dev.sluice.output.SecretMasker;
import dev.sluice.output.StreamWitness;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchLinks;
import dev.sluice.record.DispatchResult;
import dev.sluice.record.DispatchSpec;
import dev.sluice.record.SecretVault;
import dev.sluice.trace.Phase;
import dev.sluice.trace.SpanNames;
import dev.sluice.trace.Tracing;
import dev.sluice.worker.CrashPoint;

/**
 * The runner's second stage: attach to the container before it starts, stream
 * both outputs into their collectors, wait for the exit, and read back what
 * the result is built from: the witness's record (ADR 0045), the report file,
 * what the runtime's log still holds, and the artifacts, each bounded on its
 * own. A stream cut short is read back from the runtime's log, as is all of a
 * taken-over container's output.
 */
@ApplicationScoped
class CollectStage {

    /** The runner's lines keep the runner's name, as before it was split into stages. */
    private static final Logger LOG = Logger.getLogger(DispatchRunner.class);

    /** How a container ran: what was captured of it, and how and when it ended. */
    record Ran(
            String id,
            DispatchSpec spec,
            String containerId,
            Execution.StopReason stop,
            int exitCode,
            Instant startedAt,
            Instant finishedAt,
            Capture capture,
            boolean recovered,
            String imageDigest) {}

    /** What is read back from the engine after the exit, before the result is built. */
    record Collected(
            Ran ran,
            OutFile reportFile,
            DispatchResult.AvailableFrom availableFrom,
            ContainerState exited,
            Exit exit,
            Artifacts kept) {}

    /** How the dispatch ended: its status, the exit code it reports, and why, when not by the process's exit alone. */
    record Exit(Dispatch.Status status, Integer code, DispatchResult.Error error) {}

    /** The live stream of a container not yet started, and what it goes into. */
    static final class Attached implements AutoCloseable {
        private final Attachment attachment;
        private final Capture capture;
        private final IdleWatch idle;

        private Attached(Attachment attachment, Capture capture, IdleWatch idle) {
            this.attachment = attachment;
            this.capture = capture;
            this.idle = idle;
        }

        /** The dispatch's idle watch, to arm once it starts; null when it has none. */
        IdleWatch idle() {
            return idle;
        }

        /** Streams the output of the container, started since {@code startedAt}, until its stream ends. */
        Streamed pump(Instant startedAt) {
            CrashPoint.MID_RUN.reached();
            return new Streamed(capture, startedAt, attachment.pump(capture));
        }

        @Override
        public void close() {
            attachment.close();
        }
    }

    /** What the live stream gave, and how it ended. */
    record Streamed(Capture capture, Instant startedAt, Attachment.StreamEnd end) {}

    private final ContainerRuntime runtime;
    private final ContainerLogs logs;
    private final LogHolding holding;
    private final AgentReports reports;
    private final ArtifactCollection artifacts;
    private final OutputTap tap;
    private final SecretVault vault;
    private final Tracing tracing;
    private final Clock clock;

    @Inject
    CollectStage(
            ContainerRuntime runtime,
            ContainerLogs logs,
            LogHolding holding,
            AgentReports reports,
            ArtifactCollection artifacts,
            OutputTap tap,
            SecretVault vault,
            Tracing tracing,
            Clock clock) {
        this.runtime = runtime;
        this.logs = logs;
        this.holding = holding;
        this.reports = reports;
        this.artifacts = artifacts;
        this.tap = tap;
        this.vault = vault;
        this.tracing = tracing;
        this.clock = clock;
    }

    /**
     * Attaches to a created container, its input ready to be written, its output to go to the collectors and to
     * whoever watches it: the idle watch and the live tail.
     */
    Attached attach(String id, DispatchSpec spec, String containerId) {
        IdleWatch idle = spec.idleTimeout() == null ? null : new IdleWatch(spec.idleTimeout(), clock);
        SecretMasker masker = vault.maskerFor(id);
        Capture capture = new Capture(id, spec, masker, OutputSink.both(idle, tap.open(id, masker)));
        byte[] stdin = spec.input() == null ? null : spec.input().getBytes(StandardCharsets.UTF_8);
        return new Attached(runtime.attach(containerId, stdin), capture, idle);
    }

    /** Waits for the exit of a container whose stream has ended, and collects what it left. */
    Collected afterExit(String id, DispatchSpec spec, Execution execution, String containerId, Streamed streamed) {
        int exitCode = runtime.awaitExit(containerId);
        Instant finishedAt = now();
        execution.finished();
        tracing.startedAt(SpanNames.RUN, streamed.startedAt())
                .attribute(SpanNames.EXIT_CODE, exitCode)
                .attribute(SpanNames.CONTAINER_ID, containerId)
                .close();

        Capture capture = streamed.capture();
        boolean recovered = false;
        if (!streamed.end().clean()) {
            // The live stream was cut (engine restart, network): the runtime's log has it all.
            LOG.warnf(
                    "output stream ended early (%s); reading it back from the runtime log",
                    streamed.end().readFailure() != null ? streamed.end().readFailure() : "cut inside a frame");
            capture = capture(id, spec);
            logs.replay(containerId, capture);
            recovered = true;
        }
        return collect(new Ran(
                id,
                spec,
                containerId,
                execution.stopReason(),
                exitCode,
                streamed.startedAt(),
                finishedAt,
                capture,
                recovered,
                execution.imageDigest()));
    }

    /**
     * Collects a taken-over container that has started, running since {@code startedAt}: it waits for it to exit
     * (if it still runs) and reads its whole log back. The output comes from the runtime's log, so the result says
     * it was recovered.
     */
    Collected takenOver(
            String id,
            DispatchSpec spec,
            Execution execution,
            boolean cancelRequested,
            String containerId,
            ContainerState container,
            Instant startedAt) {
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
        return collect(new Ran(
                id, spec, containerId, stop, exitCode, startedAt, finishedAt, capture, true, execution.imageDigest()));
    }

    /**
     * Reads back, once the container has exited, what the result is built from: the report file and what the
     * runtime's log still holds (outside the finishing budget: they wait on the engine, and are bounded on their
     * own), the witness's record, set against the capture, and the artifacts.
     */
    private Collected collect(Ran ran) {
        CrashPoint.AFTER_EXIT.reached();
        String containerId = ran.containerId();
        Capture capture = ran.capture();
        try (Phase span = tracing.start(SpanNames.COLLECT)) {
            OutFile reportFile = reports.file(containerId);
            // Counting what the runtime still holds reads the log back: outside the budget, like the report.
            // It counts what the runtime received: an end restored from the witness below is not in its log.
            DispatchResult.AvailableFrom availableFrom = holding.atFinish(
                    containerId,
                    capture.bytesWritten(true),
                    capture.bytesWritten(false),
                    ran.recovered() ? LogHolding.UNKNOWN : capture.jsonFileLogBound());
            // Once per dispatch, after its exit: how the kernel ended it, the runtime the engine ran it under,
            // and the key its witness's record must carry.
            ContainerState exited = runtime.inspect(containerId).orElse(null);
            WitnessRecord witnessed = witnessed(containerId, exited);
            capture.witness(witnessed, ofStdout -> runtime.readWitnessTail(containerId, ofStdout));
            Exit exit = exit(exited, ran.exitCode(), ran.stop(), witnessed, capture);
            Artifacts kept = artifacts.collect(ran.id(), containerId, name -> DispatchLinks.artifact(ran.id(), name));
            return new Collected(ran, reportFile, availableFrom, exited, exit, kept);
        }
    }

    /** The witness's record of an exited container, as far as it can be had and believed. */
    private WitnessRecord witnessed(String containerId, ContainerState exited) {
        WitnessRecord witnessed = exited == null
                ? WitnessRecord.unusable(StreamWitness.MISSING, "the container was gone before its record was read")
                : runtime.readWitness(containerId, exited);
        if ("timeout".equals(witnessed.drain())) {
            LOG.warnf(
                    "the engine had not read all of the output when the witness's drain timeout ran out (%s)",
                    "sluice.container.witness-drain-timeout");
        }
        if (StreamWitness.TAMPERED.equals(witnessed.reason())) {
            LOG.warnf("the witness's record of container %.12s is not believed: %s", containerId, witnessed.detail());
        }
        return witnessed;
    }

    /** Collectors for a dispatch's output, masking its secrets as they go (into the digests) and in the result. */
    private Capture capture(String id, DispatchSpec spec) {
        return new Capture(id, spec, vault.maskerFor(id));
    }

    /**
     * The status from the stop reason or the exit code, unless the witness
     * says the command never ran, or that bytes the process wrote are missing:
     * a process that ran to its exit is presented as having done so only with
     * all it wrote (ADR 0045). A stopped one keeps its stop's status.
     */
    private static Exit exit(
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

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private Instant now() {
        return clock.instant();
    }
}
