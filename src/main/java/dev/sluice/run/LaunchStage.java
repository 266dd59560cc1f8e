package dev.sluice.run;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.ContainerState;
import dev.sluice.container.engine.ContainerException;
import dev.sluice.container.sandbox.ContainerSpec;
import dev.sluice.container.sandbox.Labels;
import dev.sluice.image.ImageName;
import dev.sluice.image.ImageResolver;
import dev.sluice.record.DispatchKey;
import dev.sluice.record.DispatchPulling;
import dev.sluice.record.DispatchResult;
import dev.sluice.record.DispatchSpec;
import dev.sluice.record.DispatchStore;
import dev.sluice.record.DispatchTransitions;
import dev.sluice.record.SecretVault;
import dev.sluice.store.StoreIdentity;
import dev.sluice.trace.Phase;
import dev.sluice.trace.SpanNames;
import dev.sluice.trace.Tracing;
import dev.sluice.worker.CrashPoint;
import dev.sluice.worker.Worker;
import dev.sluice.workspace.WorkspaceRefused;
import dev.sluice.workspace.Workspaces;

/**
 * The runner's first stage: from the claim to a started container. It claims
 * the dispatch for this worker, settles its image (or sends it back to the
 * queue while the image is pulled, ADR 0059), places its workspace, creates
 * its container labelled as this worker's, and starts it once the collect
 * stage has attached. A launch that stops short says so as data
 * ({@link Launched}); the runner ends it through the finish stage. A container
 * that outlived a worker restart is taken over here too.
 */
@ApplicationScoped
class LaunchStage {

    /** The runner's lines keep the runner's name, as before it was split into stages. */
    private static final Logger LOG = Logger.getLogger(DispatchRunner.class);

    /**
     * How a launch came out: a container created, or the dispatch ends as an error without output
     * ({@code refusal}, with its image's digest when known), or it leaves the slot with {@code outcome}.
     */
    record Launched(
            String containerId, DispatchScheduler.Outcome outcome, DispatchResult.Error refusal, String imageDigest) {

        static Launched created(String containerId) {
            return new Launched(containerId, DispatchScheduler.Outcome.DONE, null, null);
        }

        static Launched refused(DispatchResult.Error refusal, String imageDigest) {
            return new Launched(null, DispatchScheduler.Outcome.DONE, refusal, imageDigest);
        }

        /** Queued again, waiting for its image, or left to a cancellation that came meanwhile. */
        static Launched notNow(DispatchScheduler.Outcome outcome) {
            return new Launched(null, outcome, null, null);
        }
    }

    private final DispatchTransitions transitions;
    private final DispatchStore store;
    private final ImageResolver images;
    private final Event<DispatchPulling> pulling;
    private final Workspaces workspaces;
    private final ContainerRuntime runtime;
    private final Tracing tracing;
    private final SecretVault vault;
    private final Clock clock;
    /** Whose claim a dispatch must carry for this worker to start it. */
    private final String workerId;
    /** The labels every container of this worker carries: who runs it, and which store holds its record. */
    private final Map<String, String> ownerLabels;

    @Inject
    LaunchStage(
            DispatchTransitions transitions,
            DispatchStore store,
            ImageResolver images,
            Event<DispatchPulling> pulling,
            Workspaces workspaces,
            ContainerRuntime runtime,
            Tracing tracing,
            SecretVault vault,
            Clock clock,
            Worker worker,
            StoreIdentity storeIdentity) {
        this.transitions = transitions;
        this.store = store;
        this.images = images;
        this.pulling = pulling;
        this.workspaces = workspaces;
        this.runtime = runtime;
        this.tracing = tracing;
        this.vault = vault;
        this.clock = clock;
        this.workerId = worker.id();
        this.ownerLabels = Map.of(Labels.WORKER_ID, worker.id(), Labels.STORE_ID, storeIdentity.id());
    }

    /** Claims a queued dispatch for this worker and reads its request back; empty when there is nothing to run. */
    Optional<DispatchStore.ToRun> claim(String id) {
        if (!transitions.markStarting(id, workerId)) {
            return Optional.empty(); // cancelled while queued, or claimed by another meanwhile
        }
        CrashPoint.AFTER_ACCEPT.reached();
        Optional<DispatchStore.ToRun> stored = store.toRun(id);
        if (stored.isEmpty()) {
            LOG.error("its record is gone: nothing to run");
        }
        return stored;
    }

    /** Settles the image, places the workspace and creates the container, recording it on the dispatch. */
    Launched create(String id, DispatchSpec spec, Execution execution, DispatchScheduler.Queued queued) {
        if (spec.secretsMissing()) {
            return Launched.refused(Errors.SECRETS_UNAVAILABLE, null);
        }
        if (queued.pullFailure() != null) {
            return Launched.refused(pullFailed(queued.pullFailure()), null);
        }
        String containerId;
        try {
            ImageResolver.Resolution image = images.resolve(DispatchKey.tenantOf(id), spec, queued.imagePulled());
            if (image instanceof ImageResolver.Pull pull) {
                return awaitPull(id, spec, pull);
            }
            ImageResolver.Ready ready = (ImageResolver.Ready) image;
            execution.imageResolved(ready.digest());
            containerId = createContainer(id, spec, ready);
        } catch (ImageResolver.Refused e) {
            return Launched.refused(e.error, e.digest);
        } catch (WorkspaceRefused e) {
            return Launched.refused(Errors.workspaceUnavailable(e.getMessage()), execution.imageDigest());
        } catch (ContainerException e) {
            return notCreated(id, e, execution);
        }
        execution.containerCreated(containerId);
        transitions.recordContainer(id, containerId);
        CrashPoint.AFTER_CREATE.reached();
        return Launched.created(containerId);
    }

    /** After the pull: an archive fetched for a dispatch that goes back to wait for its image is wasted. */
    private String createContainer(String id, DispatchSpec spec, ImageResolver.Ready ready) {
        try (Workspaces.Prepared workspace =
                        spec.workspace() == null ? null : workspaces.prepare(id, spec.workspace());
                Phase span =
                        tracing.start(SpanNames.CONTAINER_CREATE).attribute(SpanNames.IMAGE_DIGEST, ready.digest())) {
            String containerId =
                    runtime.create(containerSpec(id, spec, workspace == null ? null : workspace.tar()), ready.facts());
            span.attribute(SpanNames.CONTAINER_ID, containerId);
            return containerId;
        }
    }

    /**
     * A create that timed out was sent: the engine may still carry it out, and the dispatch has waited on the
     * engine as long as it may (ADR 0016). It ends; repeating it could make a second container. A create that
     * never reached the engine goes back to the queue.
     */
    private Launched notCreated(String id, ContainerException e, Execution execution) {
        if (e.reason() == ContainerException.Reason.ENGINE_UNAVAILABLE
                && !e.timedOut()
                && transitions.markQueuedAgain(id)) {
            LOG.warnf(
                    "engine unavailable, queued again: %s", vault.maskerFor(id).mask(e.getMessage()));
            return Launched.notNow(DispatchScheduler.Outcome.REQUEUE);
        }
        return Launched.refused(Errors.of(e), execution.imageDigest());
    }

    /**
     * Back to the queue while its image is pulled, holding no slot (ADR 0059);
     * a dispatch cancelled meanwhile is left to its cancellation.
     */
    private Launched awaitPull(String id, DispatchSpec spec, ImageResolver.Pull pull) {
        if (!transitions.markQueuedAgain(id)) {
            return Launched.notNow(DispatchScheduler.Outcome.DONE);
        }
        LOG.infof("waiting for image %s to be pulled", spec.image());
        pulling.fire(new DispatchPulling(id, spec.image()));
        return Launched.notNow(DispatchScheduler.Outcome.awaitImage(pull.pull()));
    }

    /** Why the pull it waited for failed: its kind in our words, never the engine's text (ADR 0059, 0075). */
    private static DispatchResult.Error pullFailed(RuntimeException failure) {
        return failure instanceof ContainerException e ? Errors.of(e) : Errors.WORKER_ERROR;
    }

    /**
     * Starts a container the collect stage has attached to, and arms its
     * timeout and idle watch ({@code idle}, or null); returns when it started.
     */
    Instant start(String id, DispatchSpec spec, Execution execution, String containerId, IdleWatch idle) {
        try (Phase span = tracing.start(SpanNames.CONTAINER_START)) {
            runtime.start(containerId);
        }
        Instant startedAt = clock.instant();
        transitions.markRunning(id, startedAt);
        LOG.infof("running in container %.12s", containerId);
        execution.started(spec.timeout());
        if (idle != null) {
            execution.watchIdle(idle);
        }
        return startedAt;
    }

    /** Takes over a container that outlived a worker restart: how the engine holds it now, or null when gone. */
    ContainerState takeOver(DispatchSpec spec, Execution execution, String containerId) {
        LOG.infof("taking over container %.12s", containerId);
        execution.containerCreated(containerId);
        execution.imageResolved(digestOf(spec));
        return runtime.inspect(containerId).orElse(null);
    }

    /**
     * Readies a taken-over container that never ran to be started: it may have stopped before its workspace was
     * placed, so that is placed again, as at the create. The refusal when the workspace cannot be had; else null.
     */
    DispatchResult.Error prepareAgain(String id, DispatchSpec spec, String containerId) {
        if (spec.workspace() == null) {
            runtime.prepareAgain(containerId);
            return null;
        }
        try (Workspaces.Prepared workspace = workspaces.prepare(id, spec.workspace())) {
            runtime.prepareAgain(containerId, workspace.tar());
            return null;
        } catch (WorkspaceRefused e) {
            return Errors.workspaceUnavailable(e.getMessage());
        }
    }

    /** Records a taken-over container that has started as running since it did; returns since when. */
    Instant runningSince(String id, Instant storedStart, ContainerState container) {
        Instant startedAt = storedStart != null
                ? storedStart
                : container.startedAt() != null ? container.startedAt() : clock.instant();
        transitions.markRunning(id, startedAt);
        return startedAt;
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
}
