package dev.sluice.dispatch;

import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

import dev.sluice.concurrent.LogScope;
import dev.sluice.store.StoreException;

/**
 * Accepts dispatches. Acceptance is idempotent by client id, and checked
 * against the allow-list, the drain, the engine and capacity before anything
 * is recorded, so a refused request changes nothing.
 */
public class DispatchIntake {

    private static final Logger LOG = Logger.getLogger(DispatchIntake.class);

    /** The dispatch recorded for a request, and whether this request created it. */
    public record Accepted(Dispatch dispatch, boolean created) {}

    private final DispatchStore store;
    private final DispatchScheduler scheduler;
    private final SecretVault vault;
    private final ImagePolicy images;
    private final BooleanSupplier engineAvailable;
    private final BooleanSupplier draining;
    private final Clock clock;
    private final String workerId;
    private final Consumer<DispatchAccepted> accepted;

    DispatchIntake(
            DispatchStore store,
            DispatchScheduler scheduler,
            SecretVault vault,
            ImagePolicy images,
            BooleanSupplier engineAvailable,
            BooleanSupplier draining,
            Clock clock,
            String workerId,
            Consumer<DispatchAccepted> accepted) {
        this.store = store;
        this.scheduler = scheduler;
        this.vault = vault;
        this.images = images;
        this.engineAvailable = engineAvailable;
        this.draining = draining;
        this.clock = clock;
        this.workerId = workerId;
        this.accepted = accepted;
    }

    public Accepted accept(String requestedId, DispatchSpec spec, String fingerprint) {
        if (!images.allows(spec.image())) {
            throw new RequestRefused(
                    RequestRefused.Reason.IMAGE_NOT_ALLOWED,
                    "image " + spec.image() + " is not on this worker's allow-list");
        }
        if (requestedId != null) {
            Optional<Dispatch> existing = find(requestedId);
            if (existing.isPresent()) {
                return replay(existing.get(), fingerprint);
            }
        }
        if (draining.getAsBoolean()) {
            throw new RequestRefused(
                    RequestRefused.Reason.SHUTTING_DOWN, "this worker is shutting down; nothing was accepted");
        }
        if (!engineAvailable.getAsBoolean()) {
            throw new RequestRefused(
                    RequestRefused.Reason.ENGINE_UNAVAILABLE,
                    "the Docker engine is not reachable; nothing was accepted");
        }
        if (!scheduler.reserve()) {
            throw new RequestRefused(
                    RequestRefused.Reason.AT_CAPACITY, "all run slots and the queue are full; nothing was accepted");
        }
        String id = requestedId != null ? requestedId : newId();
        DispatchStore.NewDispatch record =
                new DispatchStore.NewDispatch(id, spec, fingerprint, workerId, clock.instant());
        boolean inserted;
        try {
            inserted = store.insert(record);
        } catch (StoreException e) {
            scheduler.release();
            throw RequestRefused.storeUnavailable();
        }
        if (!inserted) {
            scheduler.release();
            return replay(find(id).orElseThrow(() -> conflict(id)), fingerprint);
        }
        vault.put(id, spec.secrets());
        try (LogScope scope = LogScope.dispatch(id)) {
            LOG.infof("accepted: image %s", spec.image());
        }
        // Announced before it can start: whoever follows its states sees queued before starting.
        accepted.accept(new DispatchAccepted(id));
        scheduler.submit(id, spec);
        return new Accepted(queued(record), true);
    }

    private Optional<Dispatch> find(String id) {
        try {
            return store.find(id);
        } catch (StoreException e) {
            throw RequestRefused.storeUnavailable();
        }
    }

    private static Accepted replay(Dispatch existing, String fingerprint) {
        if (!existing.fingerprint().equals(fingerprint)) {
            throw conflict(existing.id());
        }
        return new Accepted(existing, false);
    }

    private static RequestRefused conflict(String id) {
        return new RequestRefused(
                RequestRefused.Reason.ID_CONFLICT, "dispatch " + id + " already exists with a different request");
    }

    private Dispatch queued(DispatchStore.NewDispatch d) {
        return new Dispatch(
                d.id(),
                Dispatch.Status.QUEUED,
                d.spec().image(),
                d.createdAt(),
                null,
                null,
                d.spec().metadata(),
                d.spec().callbackUrl(),
                null,
                null,
                workerId,
                null,
                d.spec().hasSecrets(),
                d.fingerprint());
    }

    private static String newId() {
        return "d-" + UUID.randomUUID().toString().replace("-", "");
    }
}
