package dev.sluice.dispatch;

import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;

import dev.sluice.container.ContainerException;
import dev.sluice.container.ContainerLogs;
import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.EngineMonitor;
import dev.sluice.output.SecretMasker;

/**
 * What the API asks of dispatches: accept, read, list, cancel, read logs.
 * Acceptance is idempotent by client id and checked against capacity before
 * anything is recorded, so a refused request changes nothing.
 */
public class DispatchService {

    private final DispatchStore store;
    private final DispatchScheduler scheduler;
    private final SecretVault vault;
    private final ImagePolicy images;
    private final EngineMonitor engine;
    private final ContainerRuntime runtime;
    private final ContainerLogs logs;
    private final ScheduledExecutorService timer;
    private final Clock clock;
    private final String workerId;
    private final long graceMillis;
    private final DispatchRunner.FinishListener onFinish;
    private final Runnable onAccept;
    private final BooleanSupplier draining;

    DispatchService(DispatchStore store, DispatchScheduler scheduler, SecretVault vault, ImagePolicy images,
            EngineMonitor engine, ContainerRuntime runtime, ContainerLogs logs, ScheduledExecutorService timer,
            Clock clock, String workerId, long graceMillis, DispatchRunner.FinishListener onFinish, Runnable onAccept,
            BooleanSupplier draining) {
        this.store = store;
        this.scheduler = scheduler;
        this.vault = vault;
        this.images = images;
        this.engine = engine;
        this.runtime = runtime;
        this.logs = logs;
        this.timer = timer;
        this.clock = clock;
        this.workerId = workerId;
        this.graceMillis = graceMillis;
        this.onFinish = onFinish;
        this.onAccept = onAccept;
        this.draining = draining;
    }

    /** The dispatch recorded for a request, and whether this request created it. */
    public record Accepted(Dispatch dispatch, boolean created) {
    }

    /** The dispatch after a cancel, and whether it is still being stopped. */
    public record Cancelled(Dispatch dispatch, boolean stopping) {
    }

    public Accepted accept(String requestedId, DispatchSpec spec, String fingerprint) {
        if (!images.allows(spec.image())) {
            throw new RequestRefused(RequestRefused.Reason.IMAGE_NOT_ALLOWED, "image " + spec.image()
                    + " is not on this worker's allow-list");
        }
        if (requestedId != null) {
            Optional<Dispatch> existing = find(requestedId);
            if (existing.isPresent()) {
                return replay(existing.get(), fingerprint);
            }
        }
        if (draining.getAsBoolean()) {
            throw new RequestRefused(RequestRefused.Reason.SHUTTING_DOWN,
                    "this worker is shutting down; nothing was accepted");
        }
        if (!engine.available()) {
            throw new RequestRefused(RequestRefused.Reason.ENGINE_UNAVAILABLE,
                    "the Docker engine is not reachable; nothing was accepted");
        }
        if (!scheduler.reserve()) {
            throw new RequestRefused(RequestRefused.Reason.AT_CAPACITY,
                    "all run slots and the queue are full; nothing was accepted");
        }
        String id = requestedId != null ? requestedId : newId();
        DispatchStore.NewDispatch record = new DispatchStore.NewDispatch(id, spec, fingerprint, workerId, clock.instant());
        boolean inserted;
        try {
            inserted = store.insert(record);
        } catch (StoreException e) {
            scheduler.release();
            throw storeUnavailable();
        }
        if (!inserted) {
            scheduler.release();
            return replay(find(id).orElseThrow(() -> conflict(id)), fingerprint);
        }
        vault.put(id, spec.secrets());
        scheduler.submit(id, spec);
        onAccept.run();
        return new Accepted(queued(record), true);
    }

    private static Accepted replay(Dispatch existing, String fingerprint) {
        if (!existing.fingerprint().equals(fingerprint)) {
            throw conflict(existing.id());
        }
        return new Accepted(existing, false);
    }

    private static RequestRefused conflict(String id) {
        return new RequestRefused(RequestRefused.Reason.ID_CONFLICT,
                "dispatch " + id + " already exists with a different request");
    }

    private Dispatch queued(DispatchStore.NewDispatch d) {
        return new Dispatch(d.id(), Dispatch.Status.QUEUED, d.spec().image(), d.createdAt(), null, null,
                d.spec().metadata(), d.spec().callbackUrl(), null, null, workerId, null, d.spec().hasSecrets(),
                d.fingerprint());
    }

    public Dispatch get(String id) {
        return find(id).orElseThrow(() -> new RequestRefused(RequestRefused.Reason.NOT_FOUND, "no dispatch " + id));
    }

    private Optional<Dispatch> find(String id) {
        try {
            return store.find(id);
        } catch (StoreException e) {
            throw storeUnavailable();
        }
    }

    public DispatchStore.Page list(Dispatch.Status status, int limit, String after) {
        try {
            return store.list(status, limit, after);
        } catch (IllegalArgumentException e) {
            throw new RequestRefused(RequestRefused.Reason.INVALID_CURSOR,
                    "after must be the id of a dispatch from a previous page");
        } catch (StoreException e) {
            throw storeUnavailable();
        }
    }

    /** Idempotent: a finished dispatch is left as it is; a queued one ends at once; a running one is stopped. */
    public Cancelled cancel(String id) {
        Dispatch dispatch = get(id);
        if (dispatch.status().terminal()) {
            return new Cancelled(dispatch, false);
        }
        if (dispatch.status() == Dispatch.Status.QUEUED && cancelQueued(dispatch)) {
            return new Cancelled(get(id), false);
        }
        store.requestCancel(id);
        scheduler.execution(id).ifPresent(e -> e.stop(Execution.StopReason.CANCEL, timer, runtime, graceMillis));
        return new Cancelled(get(id), true);
    }

    private boolean cancelQueued(Dispatch dispatch) {
        scheduler.dequeue(dispatch.id());
        DispatchSpec spec = store.spec(dispatch.id()).orElseThrow();
        Results.Finished cancelled = Results.withoutOutput(dispatch.id(), spec, Dispatch.Status.CANCELLED, null,
                clock.instant());
        if (!store.finishQueued(cancelled.result(), cancelled.summary())) {
            return false; // it left the queue meanwhile: stop it like a running one
        }
        onFinish.finished(cancelled.result());
        return true;
    }

    /** A byte range of one stream, read back from the runtime and masked. */
    public ContainerLogs.Range logs(String id, boolean stdout, long offset, int limit) {
        Dispatch dispatch = get(id);
        if (dispatch.containerId() == null) {
            throw new RequestRefused(RequestRefused.Reason.LOG_GONE,
                    "dispatch " + id + " has no container, so there is no log to read");
        }
        SecretMasker masker = vault.masker(dispatch).orElseThrow(() -> new RequestRefused(
                RequestRefused.Reason.LOG_UNMASKABLE, "the log of dispatch " + id + " holds secrets this worker "
                        + "no longer has (it restarted), so it cannot be masked and is not served"));
        try {
            return logs.read(dispatch.containerId(), stdout, offset, limit, masker);
        } catch (ContainerException e) {
            if (e.reason() == ContainerException.Reason.NOT_FOUND) {
                throw new RequestRefused(RequestRefused.Reason.LOG_GONE,
                        "the container of dispatch " + id + " was removed, and its log with it");
            }
            throw new RequestRefused(RequestRefused.Reason.ENGINE_UNAVAILABLE, "the log could not be read: "
                    + e.getMessage());
        }
    }

    /** Ends the dispatches that waited in the queue past the limit. */
    void expireQueued() {
        for (DispatchScheduler.Queued q : scheduler.expire()) {
            Results.Finished expired = Results.withoutOutput(q.id(), q.spec(), Dispatch.Status.ERROR,
                    new DispatchResult.Error("queue_timeout", "the dispatch waited in the queue past the worker's "
                            + "limit without starting"), clock.instant());
            if (store.finishQueued(expired.result(), expired.summary())) {
                onFinish.finished(expired.result());
            }
        }
    }

    private static RequestRefused storeUnavailable() {
        return new RequestRefused(RequestRefused.Reason.STORE_UNAVAILABLE, "the dispatch store is not reachable");
    }

    private static String newId() {
        return "d-" + UUID.randomUUID().toString().replace("-", "");
    }
}
