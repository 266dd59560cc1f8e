package dev.sluice.run;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.sluice.concurrent.LogScope;
import dev.sluice.record.DispatchConfig;
import dev.sluice.record.DispatchKey;
import dev.sluice.worker.Drain;

/**
 * Capacity: at most {@code maxRunning} containers at once and a bounded queue
 * behind them, each tenant within limits of its own, started as slots free up
 * in the fair order of {@link TenantQueues} (ADR 0057). Dispatches wait in the
 * queue while the engine is unreachable; one that waits longer than
 * {@code maxQueueWait} ends as {@code error}. The queue holds what the store
 * does not: a queued dispatch's secrets, in memory only; its request is read
 * back from the store when it leaves the queue for a slot.
 */
final class DispatchScheduler implements Drain.InFlight, DispatchLoad {

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
    private final ExecutorService workers;
    private final Runner runner;
    private final BooleanSupplier engineAvailable;
    private final Function<String, Execution> newExecution;
    private final Consumer<QueueWait> waits;
    private final Clock clock;

    private final TenantQueues queues;
    private final Map<String, Execution> executions = new ConcurrentHashMap<>();
    /** Queued dispatches whose image is being pulled: not offered a slot until the pull ends. */
    private final Set<String> pulling = new HashSet<>();

    /**
     * @param workers      runs each dispatch on a thread of its own
     * @param newExecution makes the in-flight state of a dispatch leaving the queue
     * @param waits        told how long each dispatch waited, as it leaves the queue for a slot
     */
    DispatchScheduler(
            Capacity capacity,
            ExecutorService workers,
            Runner runner,
            BooleanSupplier engineAvailable,
            Function<String, Execution> newExecution,
            Consumer<QueueWait> waits,
            Clock clock) {
        this.maxRunning = capacity.maxRunning();
        this.capacity = capacity.maxRunning() + capacity.maxQueued();
        this.maxQueueWait = capacity.maxQueueWait();
        this.limits = capacity.tenants();
        this.workers = workers;
        this.runner = runner;
        this.engineAvailable = engineAvailable;
        this.newExecution = newExecution;
        this.waits = waits;
        this.clock = clock;
        this.queues = new TenantQueues(limits);
    }

    /**
     * Holds places for {@code n} dispatches of a tenant about to be recorded
     * together, all or none. The tenant's own limit is said first: it is the
     * one its client can do something about.
     */
    synchronized Admission reserve(String tenant, int n) {
        if (queues.held(tenant) + n > limits.of(tenant).places()) {
            return Admission.TENANT_FULL;
        }
        if (queues.held() + n > capacity) {
            return Admission.WORKER_FULL;
        }
        queues.reserve(tenant, n);
        return Admission.HELD;
    }

    /** Gives back {@code n} places of a tenant held and not used. */
    synchronized void release(String tenant, int n) {
        queues.release(tenant, n);
    }

    /** Queues a recorded dispatch in the place {@link #reserve} held for it; it keeps only its secrets here. */
    synchronized void submit(String id, Map<String, String> secrets) {
        queues.add(Queued.of(id, clock.instant(), secrets), true);
        drain();
    }

    /**
     * Queues a dispatch found in the store (after a restart), if the worker
     * has room. Its tenant's limit is not asked: the dispatch was accepted
     * under it, and refusing it now would only leave it for the next
     * reconciliation; it still starts no more of its tenant's than its max-running.
     */
    synchronized boolean resubmit(String id, Instant queuedAt) {
        if (queues.held() >= capacity) {
            return false;
        }
        queues.add(Queued.of(id, queuedAt, Map.of()), false);
        drain();
        return true;
    }

    /** Starts what can start; called on submit, when a slot frees, and periodically. */
    synchronized void drain() {
        while (queues.running() < maxRunning && engineAvailable.getAsBoolean()) {
            Optional<TenantQueues.Start> next = queues.next(q -> !pulling.contains(q.id()));
            if (next.isEmpty()) {
                return;
            }
            TenantQueues.Start start = next.get();
            Queued queued = start.queued();
            waits.accept(new QueueWait(Duration.between(queued.queuedAt(), clock.instant())));
            Execution execution = newExecution.apply(queued.id());
            executions.put(queued.id(), execution);
            workers.execute(LogScope.wrap(queued.id(), () -> runOne(start, execution)));
        }
    }

    private void runOne(TenantQueues.Start start, Execution execution) {
        Outcome outcome = Outcome.DONE;
        Queued queued = start.queued();
        try {
            outcome = runner.run(queued, execution);
        } finally {
            executions.remove(queued.id());
            synchronized (this) {
                if (outcome == Outcome.REQUEUE) {
                    queues.requeue(start);
                } else if (outcome.image != null) {
                    queues.requeue(start);
                    pulling.add(queued.id());
                    // Registered once it waits: a pull that has ended already calls back at once.
                    outcome.image.whenComplete((ignored, failure) -> pulled(queued.id(), failure));
                } else {
                    queues.ended(queued.tenant());
                }
                drain();
            }
        }
    }

    /** The pull a dispatch waited for ended: it is offered a slot again, first in its tenant's line. */
    private synchronized void pulled(String id, Throwable failure) {
        if (pulling.remove(id)) {
            queues.replace(id, q -> q.pulled(failure));
            drain();
        }
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
                    drain();
                }
            }
        }));
    }

    /** Whether this dispatch is queued or in flight here. */
    synchronized boolean tracks(String id) {
        return executions.containsKey(id) || queues.contains(id);
    }

    /** Ids of the dispatches in flight, for the drain on shutdown. */
    @Override
    public Set<String> inFlight() {
        return Set.copyOf(executions.keySet());
    }

    /** Removes a dispatch from the queue; false when it is not waiting there. */
    synchronized boolean dequeue(String id) {
        pulling.remove(id);
        return queues.remove(id);
    }

    /** The in-flight execution of a dispatch, once it has left the queue. */
    Optional<Execution> execution(String id) {
        return Optional.ofNullable(executions.get(id));
    }

    /** Takes out the dispatches that have waited too long, oldest first; the caller ends them. */
    synchronized List<Queued> expire() {
        List<Queued> expired = queues.takeQueuedBefore(clock.instant().minus(maxQueueWait));
        expired.forEach(q -> pulling.remove(q.id()));
        return expired;
    }

    @Override
    public synchronized int running() {
        return queues.running();
    }

    @Override
    public synchronized int queued() {
        return queues.queued();
    }
}
