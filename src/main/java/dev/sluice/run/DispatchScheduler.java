package dev.sluice.run;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import dev.sluice.concurrent.LogScope;
import dev.sluice.record.DispatchConfig;
import dev.sluice.record.DispatchKey;
import dev.sluice.record.DispatchQueue;
import dev.sluice.worker.Drain;

/**
 * Capacity: at most {@code maxRunning} containers at once on this worker, each
 * tenant within limits of its own. Dispatches wait in the store's queue
 * ({@link DispatchQueue}, ADR 0063), admitted against it; this worker claims
 * the next one, in the fair order of {@link TenantQueues} (ADR 0057), whenever
 * it has a slot free and the engine answers. What it claimed and cannot start
 * yet (its image is being pulled) waits here. One that waits longer than
 * {@code maxQueueWait} ends as {@code error}. The worker holds what the store
 * does not: the secrets of the dispatches it accepted, in memory only, until
 * they start; a request is read back from the store when it starts.
 */
final class DispatchScheduler implements Drain.InFlight, DispatchLoad {

    private static final Logger LOG = Logger.getLogger(DispatchScheduler.class);

    /**
     * A dispatch waiting for a slot: its id, its tenant, since when, and its secrets (which the store never holds);
     * and once it waited for its image to be pulled (ADR 0059), that the pull is done, or why it failed.
     */
    record Queued(
            String id,
            String tenant,
            Instant queuedAt,
            Map<String, String> secrets,
            boolean imagePulled,
            RuntimeException pullFailure) {

        static Queued of(String id, Instant queuedAt, Map<String, String> secrets) {
            return new Queued(
                    id,
                    DispatchKey.tenantOf(id),
                    queuedAt,
                    secrets == null ? Map.of() : Map.copyOf(secrets),
                    false,
                    null);
        }

        /** This dispatch, its image's pull ended: done, or failed with {@code failure}. */
        Queued pulled(Throwable failure) {
            RuntimeException why = failure == null
                    ? null
                    : failure instanceof RuntimeException r
                            ? r
                            : failure.getCause() instanceof RuntimeException c ? c : new IllegalStateException(failure);
            return new Queued(id, tenant, queuedAt, secrets, true, why);
        }

        /** Without the secrets' values, should it ever be logged. */
        @Override
        public String toString() {
            return "Queued[" + id + ", queued at " + queuedAt + ", secrets " + secrets.keySet() + "]";
        }
    }

    /**
     * How much may run and wait ({@code sluice.dispatch.max-running}, {@code max-queued},
     * {@code max-queue-wait}), and each tenant's share of it.
     */
    record Capacity(int maxRunning, int maxQueued, Duration maxQueueWait, TenantLimits tenants) {

        static Capacity of(DispatchConfig config, TenantsConfig tenants) {
            return new Capacity(
                    config.maxRunning(),
                    config.maxQueued(),
                    config.maxQueueWait(),
                    TenantLimits.of(tenants, config.maxRunning(), config.maxQueued()));
        }
    }

    /** Whether places were held, and if not, whose limit refused them. */
    enum Admission {
        HELD,
        /** The tenant runs and has queued as much as it may. */
        TENANT_FULL,
        /** Every run slot and queue place of the worker is taken. */
        WORKER_FULL
    }

    /** What the scheduler should do with a dispatch once its runner returns. */
    static final class Outcome {
        /** Terminal, or left for reconciliation: the slot is free. */
        static final Outcome DONE = new Outcome(null);
        /** The engine was unreachable before anything was created: queue it again, first in line. */
        static final Outcome REQUEUE = new Outcome(null);

        private final CompletionStage<?> image;

        private Outcome(CompletionStage<?> image) {
            this.image = image;
        }

        /**
         * Its image is being pulled: it waits first in line, without a slot, and is
         * offered one once {@code pull} has ended, however it ended (ADR 0059).
         */
        static Outcome awaitImage(CompletionStage<?> pull) {
            return new Outcome(pull);
        }
    }

    /** Drives one dispatch to its end on a worker thread. */
    interface Runner {
        Outcome run(Queued queued, Execution execution);
    }

    private final int maxRunning;
    private final int capacity;
    private final Duration maxQueueWait;
    private final TenantLimits limits;
    private final DispatchQueue queue;
    private final ExecutorService workers;
    private final Runner runner;
    private final BooleanSupplier engineAvailable;
    private final BooleanSupplier draining;
    private final Function<String, Execution> newExecution;
    private final Consumer<QueueWait> waits;
    private final Clock clock;

    private final TenantQueues queues;
    private final Map<String, Execution> executions = new ConcurrentHashMap<>();
    /** Claimed dispatches whose image is being pulled: not offered a slot until the pull ends. */
    private final Set<String> pulling = new HashSet<>();
    /** The secrets of dispatches accepted here that have not started: pinned here, claimed by no one else. */
    private final Map<String, Map<String, String>> secrets = new HashMap<>();

    /** Admission's lock: one count of the store and its places at a time on this worker. */
    private final Object admission = new Object();

    /** One filler at a time; a call while another fills asks it for one more round. */
    private final ReentrantLock filling = new ReentrantLock();

    private final AtomicBoolean wanted = new AtomicBoolean();

    /** When the filler now running took the lock, or {@code null}: a wedged filler shows here (SchedulerWatch). */
    private volatile Instant fillingSince;

    /**
     * @param queue        the store's queue, as this worker claims from it
     * @param workers      runs each dispatch on a thread of its own
     * @param draining     whether this worker is shutting down: it then claims nothing more
     * @param newExecution makes the in-flight state of a dispatch leaving the queue
     * @param waits        told how long each dispatch waited, as it leaves the queue for a slot
     */
    DispatchScheduler(
            Capacity capacity,
            DispatchQueue queue,
            ExecutorService workers,
            Runner runner,
            BooleanSupplier engineAvailable,
            BooleanSupplier draining,
            Function<String, Execution> newExecution,
            Consumer<QueueWait> waits,
            Clock clock) {
        this.maxRunning = capacity.maxRunning();
        this.capacity = capacity.maxRunning() + capacity.maxQueued();
        this.maxQueueWait = capacity.maxQueueWait();
        this.limits = capacity.tenants();
        this.queue = queue;
        this.workers = workers;
        this.runner = runner;
        this.engineAvailable = engineAvailable;
        this.draining = draining;
        this.newExecution = newExecution;
        this.waits = waits;
        this.clock = clock;
        this.queues = new TenantQueues(limits);
    }

    /**
     * Holds places for {@code n} dispatches of a tenant about to be recorded
     * together, all or none, against the store's unfinished dispatches and
     * this worker's limits times the workers alive (ADR 0063). The tenant's
     * own limit is said first: it is the one its client can do something about.
     *
     * @throws dev.sluice.store.StoreException when the store cannot say
     */
    Admission reserve(String tenant, int n) {
        // Counted and held under one lock, which the release of a place to its new row also takes: a place
        // is counted once, as held or as a row, never neither.
        synchronized (admission) {
            DispatchQueue.Load load = queue.load(tenant, clock.instant());
            long replicas = Math.max(1, load.liveWorkers());
            synchronized (this) {
                if (load.tenantUnfinished() + queues.reserved(tenant) + n
                        > limits.of(tenant).places() * replicas) {
                    return Admission.TENANT_FULL;
                }
                if (load.unfinished() + queues.reserved() + n > capacity * replicas) {
                    return Admission.WORKER_FULL;
                }
                queues.reserve(tenant, n);
                return Admission.HELD;
            }
        }
    }

    /** Gives back {@code n} places of a tenant held and not used. */
    void release(String tenant, int n) {
        synchronized (admission) {
            synchronized (this) {
                queues.release(tenant, n);
            }
        }
    }

    /**
     * A dispatch recorded in the place {@link #reserve} held for it now waits
     * in the store's queue; its secrets wait here, as only this worker has them.
     */
    void submit(String id, Map<String, String> secrets) {
        synchronized (this) {
            if (secrets != null && !secrets.isEmpty()) {
                this.secrets.put(id, Map.copyOf(secrets));
            }
        }
        release(DispatchKey.tenantOf(id), 1);
        drain();
    }

    /**
     * Gives a claimed dispatch back to the store's queue, for any worker that
     * may run it (this one after a restart: the secrets it had are gone, and
     * its runner says so).
     */
    void requeue(String id) {
        queue.release(id);
        drain();
    }

    /**
     * Starts what can start: what this worker claimed and can start now, then
     * claims from the store's queue while a slot is free. Called on submit, when
     * a slot frees, and every tick (for work other workers accepted). The store
     * is asked outside the lock.
     */
    void drain() {
        wanted.set(true);
        while (wanted.get() && filling.tryLock()) {
            try {
                fillingSince = clock.instant();
                wanted.set(false);
                fill();
            } catch (RuntimeException e) {
                // Never up to the caller (an accepted request, a slot that freed): the next tick claims again.
                LOG.warnf("could not claim from the queue, tried again at the next tick: %s", e.getMessage());
                return;
            } finally {
                fillingSince = null;
                filling.unlock();
            }
        }
    }

    /**
     * Keeps only the ids this worker does not drive, decided while no claim is
     * under way: a claim is in the store before the filler tracks it, so a look
     * taken meanwhile would see this worker's own claim as undriven (ADR 0068).
     * Waits at most {@code patience} for a filler to let go.
     */
    <T> List<T> untracked(Supplier<List<T>> listed, Function<T, String> id, Duration patience) {
        try {
            if (!filling.tryLock(patience.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the scheduler kept claiming for " + patience);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the scheduler", e);
        }
        try {
            List<T> all = listed.get();
            synchronized (this) {
                return all.stream().filter(t -> !tracks(id.apply(t))).toList();
            }
        } finally {
            filling.unlock();
            drain(); // a call that found the filler busy meanwhile asked for a round
        }
    }

    /** Since when the filler now running has been at it; empty while none runs. */
    Optional<Instant> fillingSince() {
        return Optional.ofNullable(fillingSince);
    }

    private void fill() {
        while (startClaimed()) {
            // what waited here goes first: it was claimed before anything still in the store
        }
        while (slotFree()) {
            List<String> order;
            boolean pinnedOnly = draining.getAsBoolean();
            List<String> waiting = queue.tenantsWaiting(pinnedOnly);
            synchronized (this) {
                order = queues.claimOrder(waiting);
            }
            Optional<DispatchQueue.Claimed> claimed = Optional.empty();
            for (String tenant : order) {
                claimed = queue.claim(tenant, pinnedOnly);
                if (claimed.isPresent()) {
                    break;
                }
            }
            if (claimed.isEmpty()) {
                return;
            }
            synchronized (this) {
                String id = claimed.get().id();
                Map<String, String> held = secrets.remove(id);
                start(queues.claimed(Queued.of(id, claimed.get().queuedAt(), held)));
            }
        }
    }

    private synchronized boolean slotFree() {
        return queues.running() < maxRunning && engineAvailable.getAsBoolean();
    }

    /** Starts the first claimed dispatch that is ready, if a slot is free; false when none started. */
    private synchronized boolean startClaimed() {
        if (!slotFree()) {
            return false;
        }
        Optional<TenantQueues.Start> next = queues.next(q -> !pulling.contains(q.id()));
        next.ifPresent(this::start);
        return next.isPresent();
    }

    private void start(TenantQueues.Start start) {
        Queued queued = start.queued();
        waits.accept(new QueueWait(Duration.between(queued.queuedAt(), clock.instant())));
        Execution execution = newExecution.apply(queued.id());
        executions.put(queued.id(), execution);
        workers.execute(LogScope.wrap(queued.id(), () -> runOne(start, execution)));
    }

    private void runOne(TenantQueues.Start start, Execution execution) {
        Outcome outcome = Outcome.DONE;
        Queued queued = start.queued();
        try {
            outcome = runner.run(queued, execution);
        } finally {
            synchronized (this) {
                // With where it goes next, at once: it is never seen untracked on its way back to a queue.
                executions.remove(queued.id());
                if (outcome == Outcome.REQUEUE) {
                    queues.unstart(start);
                } else if (outcome.image != null) {
                    queues.requeue(start);
                    pulling.add(queued.id());
                    // Registered once it waits: a pull that has ended already calls back at once.
                    outcome.image.whenComplete((ignored, failure) -> pulled(queued.id(), failure));
                } else {
                    queues.ended(queued.tenant());
                }
            }
            if (outcome == Outcome.REQUEUE) {
                // The engine could not take it: any worker whose engine answers may.
                giveBack(queued);
            }
            drain();
        }
    }

    /** A dispatch this worker claimed and cannot run goes back to the store's queue, with its secrets kept here. */
    private void giveBack(Queued queued) {
        synchronized (this) {
            if (!queued.secrets().isEmpty()) {
                secrets.put(queued.id(), queued.secrets());
            }
        }
        try {
            queue.release(queued.id());
        } catch (RuntimeException e) {
            // The claim stays; reconciliation gives it back (ADR 0010).
            LOG.warnf("could not give its claim back: %s", e.getMessage());
        }
    }

    /** The pull a dispatch waited for ended: it is offered a slot again, first in its tenant's line. */
    private void pulled(String id, Throwable failure) {
        synchronized (this) {
            if (!pulling.remove(id)) {
                return;
            }
            queues.replace(id, q -> q.pulled(failure));
        }
        drain();
    }

    /**
     * Runs a task for a dispatch whose container already exists (taken over
     * after a restart). It counts as running, even past the limit: the
     * container is running whether or not we watch it.
     */
    synchronized void adopt(String id, Consumer<Execution> task) {
        queues.adopt(id);
        Execution execution = newExecution.apply(id);
        executions.put(id, execution);
        workers.execute(LogScope.wrap(id, () -> {
            try {
                task.accept(execution);
            } finally {
                executions.remove(id);
                synchronized (this) {
                    queues.ended(DispatchKey.tenantOf(id));
                }
                drain();
            }
        }));
    }

    /** Whether this dispatch is claimed or in flight here. */
    synchronized boolean tracks(String id) {
        return executions.containsKey(id) || queues.contains(id);
    }

    /** Ids of the dispatches in flight, for the drain on shutdown. */
    @Override
    public Set<String> inFlight() {
        return Set.copyOf(executions.keySet());
    }

    /** Forgets a dispatch waiting to start (it was cancelled); false when it is not waiting here. */
    synchronized boolean dequeue(String id) {
        pulling.remove(id);
        secrets.remove(id);
        return queues.remove(id);
    }

    /** The in-flight execution of a dispatch, once it has left the queue. */
    Optional<Execution> execution(String id) {
        return Optional.ofNullable(executions.get(id));
    }

    /**
     * Takes out the dispatches that have waited too long, oldest first: those
     * claimed here, and up to {@code limit} of the store's queue that this
     * worker may claim. The caller ends them.
     */
    List<Queued> expire(int limit) {
        Instant cutoff = clock.instant().minus(maxQueueWait);
        List<Queued> expired = new ArrayList<>();
        synchronized (this) {
            expired.addAll(queues.takeQueuedBefore(cutoff));
            expired.forEach(q -> pulling.remove(q.id()));
        }
        for (DispatchQueue.Claimed waiting : queue.waitingSince(cutoff, limit)) {
            synchronized (this) {
                expired.add(Queued.of(waiting.id(), waiting.queuedAt(), secrets.remove(waiting.id())));
            }
        }
        expired.sort(Comparator.comparing(Queued::queuedAt));
        return expired;
    }

    @Override
    public synchronized int running() {
        return queues.running();
    }

    /**
     * Gives back to the store's queue what this worker claimed and has not
     * started (an image being pulled, an engine that did not answer), but for
     * what carries secrets held here: a draining worker's waiting work runs on
     * the others instead of waiting out its drain. Returns how many went back.
     */
    @Override
    public int handBack() {
        List<Queued> back;
        synchronized (this) {
            back = queues.take(q -> q.secrets().isEmpty());
            back.forEach(q -> pulling.remove(q.id()));
        }
        int given = 0;
        for (Queued q : back) {
            try {
                if (queue.release(q.id())) {
                    given++;
                }
            } catch (RuntimeException e) {
                // The claim stays; the lease's release at the end, or its lapse, gives it back (ADR 0063).
                LOG.warnf("could not give back its claim on %s: %s", q.id(), e.getMessage());
            }
        }
        return given;
    }

    /** The dispatches claimed here that wait to start: for their image, or for the engine. */
    @Override
    public synchronized int queued() {
        return queues.queued();
    }
}
