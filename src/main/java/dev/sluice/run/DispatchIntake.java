package dev.sluice.run;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

import dev.sluice.concurrent.LogScope;
import dev.sluice.image.ImagePolicy;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchAccepted;
import dev.sluice.record.DispatchKey;
import dev.sluice.record.DispatchSpec;
import dev.sluice.record.DispatchStore;
import dev.sluice.record.RequestRefused;
import dev.sluice.record.SecretVault;
import dev.sluice.store.Jdbc;
import dev.sluice.store.StoreException;
import dev.sluice.trace.Phase;
import dev.sluice.trace.SpanNames;
import dev.sluice.trace.Tracing;

/**
 * Accepts dispatches. Acceptance is idempotent by client id, and checked
 * against the allow-list, the drain, the engine and capacity before anything
 * is recorded, so a refused request changes nothing.
 */
public class DispatchIntake {

    private static final Logger LOG = Logger.getLogger(DispatchIntake.class);

    /** The dispatch recorded for a request, and whether this request created it. */
    public record Accepted(Dispatch dispatch, boolean created) {}

    /** One of several dispatches accepted together: the id its request names (or null), its spec, its fingerprint. */
    public record Member(String requestedId, DispatchSpec spec, String fingerprint) {}

    private final DispatchStore store;
    private final DispatchScheduler scheduler;
    private final SecretVault vault;
    private final ImagePolicy images;
    private final BooleanSupplier engineAvailable;
    private final BooleanSupplier draining;
    private final Clock clock;
    private final String workerId;
    private final Consumer<DispatchAccepted> accepted;
    private final Tracing tracing;

    DispatchIntake(
            DispatchStore store,
            DispatchScheduler scheduler,
            SecretVault vault,
            ImagePolicy images,
            BooleanSupplier engineAvailable,
            BooleanSupplier draining,
            Clock clock,
            String workerId,
            Consumer<DispatchAccepted> accepted,
            Tracing tracing) {
        this.store = store;
        this.scheduler = scheduler;
        this.vault = vault;
        this.images = images;
        this.engineAvailable = engineAvailable;
        this.draining = draining;
        this.clock = clock;
        this.workerId = workerId;
        this.accepted = accepted;
        this.tracing = tracing;
    }

    /**
     * Accepts a dispatch in {@code tenant}, named {@code requestedId} there (or a new id), or
     * replays the one an earlier request with the same id made.
     */
    public Accepted accept(String tenant, String requestedId, DispatchSpec spec, String fingerprint) {
        return accept(tenant, requestedId, spec, fingerprint, key -> {});
    }

    /**
     * As {@link #accept(String, String, DispatchSpec, String)}, with {@code recorded} given the new dispatch's
     * key once it is recorded and before it is queued: what it must find when it starts is put in place there.
     */
    public Accepted accept(
            String tenant, String requestedId, DispatchSpec spec, String fingerprint, Consumer<String> recorded) {
        // Its span: where the request's trace continues, and what every later span of the dispatch hangs under.
        try (Phase span = tracing.start(SpanNames.DISPATCH)) {
            span.attribute(SpanNames.TENANT, tenant).attribute(SpanNames.IMAGE, spec.image());
            try {
                Accepted accepted = accept(tenant, requestedId, spec, fingerprint, recorded, span.traceparent());
                span.attribute(
                                SpanNames.DISPATCH_ID,
                                DispatchKey.idOf(accepted.dispatch().id()))
                        .attribute(SpanNames.REPLAYED, !accepted.created());
                return accepted;
            } catch (RequestRefused e) {
                span.failed(refused(e));
                throw e;
            }
        }
    }

    private Accepted accept(
            String tenant,
            String requestedId,
            DispatchSpec spec,
            String fingerprint,
            Consumer<String> recorded,
            String traceparent) {
        images.refusal(spec.image()).ifPresent(why -> {
            throw new RequestRefused(RequestRefused.Reason.IMAGE_NOT_ALLOWED, why);
        });
        if (requestedId != null) {
            Optional<Dispatch> existing = find(DispatchKey.of(tenant, requestedId));
            if (existing.isPresent()) {
                return replay(existing.get(), fingerprint);
            }
        }
        String id = DispatchKey.of(tenant, requestedId != null ? requestedId : newId());
        admit(tenant, 1);
        DispatchStore.NewDispatch record =
                new DispatchStore.NewDispatch(id, spec, fingerprint, workerId, clock.instant(), traceparent);
        boolean inserted;
        try {
            inserted = store.insert(record);
        } catch (StoreException e) {
            scheduler.release(tenant, 1);
            throw RequestRefused.storeUnavailable();
        }
        if (!inserted) {
            scheduler.release(tenant, 1);
            return replay(find(id).orElseThrow(() -> conflict(id)), fingerprint);
        }
        recorded.accept(id);
        queue(record);
        return new Accepted(queued(record), true);
    }

    /**
     * Accepts several dispatches as one (a group's members, ADR 0028): each
     * passes every check, all get a place, and all are recorded in one
     * transaction with what {@code alsoStore} writes (given their ids); a refusal of any one
     * accepts none. A member id that is taken is a conflict, never a replay.
     *
     * @return the queued dispatches, in order
     */
    public List<Dispatch> acceptAll(String tenant, List<Member> members, BiConsumer<Jdbc.Tx, List<String>> alsoStore) {
        for (int i = 0; i < members.size(); i++) {
            int member = i;
            images.refusal(members.get(i).spec().image()).ifPresent(why -> {
                throw new RequestRefused(RequestRefused.Reason.IMAGE_NOT_ALLOWED, "member " + member + ": " + why);
            });
        }
        Instant now = clock.instant();
        // One span each, side by side under the group's request: each member's trace hangs under its own.
        List<Phase> spans = members.stream()
                .map(m -> tracing.sibling(SpanNames.DISPATCH)
                        .attribute(SpanNames.TENANT, tenant)
                        .attribute(SpanNames.IMAGE, m.spec().image()))
                .toList();
        try {
            List<Dispatch> accepted = acceptAll(tenant, members, alsoStore, now, spans);
            for (int i = 0; i < spans.size(); i++) {
                spans.get(i)
                        .attribute(
                                SpanNames.DISPATCH_ID,
                                DispatchKey.idOf(accepted.get(i).id()));
            }
            return accepted;
        } catch (RequestRefused e) {
            spans.forEach(span -> span.failed(refused(e)));
            throw e;
        } finally {
            spans.forEach(Phase::close);
        }
    }

    private List<Dispatch> acceptAll(
            String tenant,
            List<Member> members,
            BiConsumer<Jdbc.Tx, List<String>> alsoStore,
            Instant now,
            List<Phase> spans) {
        List<DispatchStore.NewDispatch> records = new ArrayList<>();
        for (int i = 0; i < members.size(); i++) {
            Member m = members.get(i);
            records.add(new DispatchStore.NewDispatch(
                    DispatchKey.of(tenant, m.requestedId() != null ? m.requestedId() : newId()),
                    m.spec(),
                    m.fingerprint(),
                    workerId,
                    now,
                    spans.get(i).traceparent()));
        }
        Optional<String> taken;
        admit(tenant, records.size());
        try {
            List<String> ids =
                    records.stream().map(DispatchStore.NewDispatch::id).toList();
            taken = store.insertAll(records, tx -> alsoStore.accept(tx, ids));
        } catch (StoreException e) {
            scheduler.release(tenant, records.size());
            throw RequestRefused.storeUnavailable();
        } catch (RuntimeException e) {
            scheduler.release(tenant, records.size());
            throw e;
        }
        if (taken.isPresent()) {
            scheduler.release(tenant, records.size());
            throw new RequestRefused(
                    RequestRefused.Reason.ID_CONFLICT,
                    "dispatch " + DispatchKey.idOf(taken.get()) + " already exists; nothing was accepted");
        }
        records.forEach(this::queue);
        return records.stream().map(this::queued).toList();
    }

    /** Why a request was refused, in the span's words: the reason's name. */
    private static String refused(RequestRefused e) {
        return e.reason().name().toLowerCase(Locale.ROOT);
    }

    /** The checks every new dispatch passes before it is recorded, ending with a place for each of {@code n}. */
    private void admit(String tenant, int n) {
        if (draining.getAsBoolean()) {
            throw new RequestRefused(
                    RequestRefused.Reason.SHUTTING_DOWN, "this worker is shutting down; nothing was accepted");
        }
        if (!engineAvailable.getAsBoolean()) {
            throw new RequestRefused(
                    RequestRefused.Reason.ENGINE_UNAVAILABLE,
                    "the Docker engine is not reachable; nothing was accepted");
        }
        DispatchScheduler.Admission admission;
        try {
            admission = scheduler.reserve(tenant, n);
        } catch (StoreException e) {
            throw RequestRefused.storeUnavailable();
        }
        switch (admission) {
            case HELD -> {}
            // Its own counts only: a refusal says nothing of what other tenants hold.
            case TENANT_FULL ->
                throw new RequestRefused(
                        RequestRefused.Reason.TENANT_AT_CAPACITY,
                        "this tenant's run slots and queue places are all taken; nothing was accepted");
            case WORKER_FULL ->
                throw new RequestRefused(
                        RequestRefused.Reason.AT_CAPACITY,
                        "all run slots and the queue are full; nothing was accepted");
        }
    }

    /** A recorded dispatch goes into the place held for it. */
    private void queue(DispatchStore.NewDispatch record) {
        vault.put(record.id(), record.spec().secrets());
        try (LogScope scope = LogScope.dispatch(record.id());
                Phase trace = tracing.continued(record.traceparent())) {
            LOG.infof("accepted: image %s", record.spec().image());
        }
        // Announced before it can start: whoever follows its states sees queued before starting.
        accepted.accept(new DispatchAccepted(record.id()));
        scheduler.submit(record.id(), record.spec().secrets());
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
                RequestRefused.Reason.ID_CONFLICT,
                "dispatch " + DispatchKey.idOf(id) + " already exists with a different request");
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
                d.fingerprint(),
                1,
                d.traceparent());
    }

    private static String newId() {
        return "d-" + UUID.randomUUID().toString().replace("-", "");
    }
}
