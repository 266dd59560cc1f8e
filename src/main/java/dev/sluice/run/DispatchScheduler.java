package dev.sluice.run;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.sluice.concurrent.LogScope;
import dev.sluice.record.DispatchConfig;
import dev.sluice.record.DispatchSpec;
import dev.sluice.worker.Drain;

/**
 * Capacity: at most {@code maxRunning} containers at once and a bounded queue
 * behind them, started in order as slots free up. Dispatches wait in the queue
 * while the engine is unreachable; one that waits longer than
 * {@code maxQueueWait} ends as {@code error}. Queued dispatches hold their
 * secrets here, in memory only.
 */
final class DispatchScheduler implements Drain.InFlight, DispatchLoad {

    /** A dispatch waiting for a slot. */
    record Queued(String id, DispatchSpec spec, Instant queuedAt) {}

    /**
     * How much may run and wait ({@code sluice.dispatch.max-running}, {@code max-queued},
     * {@code max-queue-wait}).
     */
    record Capacity(int maxRunning, int maxQueued, Duration maxQueueWait) {

        static Capacity of(DispatchConfig config) {
            return new Capacity(config.maxRunning(), config.maxQueued(), config.maxQueueWait());
        }
    }

    /** What the scheduler should do with a dispatch once its runner returns. */
    enum Outcome {
        /** Terminal, or left for reconciliation: the slot is free. */
        DONE,
        /** The engine was unreachable before anything was created: queue it again, first in line. */
        REQUEUE
    }

    /** Drives one dispatch to its end on a worker thread. */
    interface Runner {
        Outcome run(String id, DispatchSpec spec, Execution execution);
    }

    private final int maxRunning;
    private final int capacity;
    private final Duration maxQueueWait;
    private final ExecutorService workers;
    private final Runner runner;
    private final BooleanSupplier engineAvailable;
    private final Function<String, Execution> newExecution;
    private final Consumer<QueueWait> waits;
    private final Clock clock;

    private final Deque<Queued> queue = new ArrayDeque<>();
    private final Map<String, Execution> executions = new ConcurrentHashMap<>();
    private int running;
    private int reserved;

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
        this.workers = workers;
        this.runner = runner;
        this.engineAvailable = engineAvailable;
        this.newExecution = newExecution;
        this.waits = waits;
        this.clock = clock;
    }

    /** Holds a place for a dispatch about to be recorded; false when running and queued are both full. */
    boolean reserve() {
        return reserve(1);
    }

    /** Holds places for {@code n} dispatches about to be recorded together; false, holding none, when they do not all fit. */
    synchronized boolean reserve(int n) {
        if (running + queue.size() + reserved + n > capacity) {
            return false;
        }
        reserved += n;
        return true;
    }

    /** Gives back a place that {@link #reserve()} held and that was not used. */
    void release() {
        release(1);
    }

    /** Gives back {@code n} places held and not used. */
    synchronized void release(int n) {
        reserved -= n;
    }

    /** Queues a recorded dispatch in the place {@link #reserve()} held for it. */
    synchronized void submit(String id, DispatchSpec spec) {
        reserved--;
        queue.addLast(new Queued(id, spec, clock.instant()));
        drain();
    }

    /** Queues a dispatch found in the store (after a restart), if there is room. */
    synchronized boolean resubmit(String id, DispatchSpec spec, Instant queuedAt) {
        if (running + queue.size() + reserved >= capacity) {
            return false;
        }
        queue.addLast(new Queued(id, spec, queuedAt));
        drain();
        return true;
    }

    /** Starts what can start; called on submit, when a slot frees, and periodically. */
    synchronized void drain() {
        while (running < maxRunning && !queue.isEmpty() && engineAvailable.getAsBoolean()) {
            Queued next = queue.pollFirst();
            waits.accept(new QueueWait(Duration.between(next.queuedAt(), clock.instant())));
            running++;
            Execution execution = newExecution.apply(next.id());
            executions.put(next.id(), execution);
            workers.execute(LogScope.wrap(next.id(), () -> runOne(next, execution)));
        }
    }

    private void runOne(Queued queued, Execution execution) {
        Outcome outcome = Outcome.DONE;
        try {
            outcome = runner.run(queued.id(), queued.spec(), execution);
        } finally {
            executions.remove(queued.id());
            synchronized (this) {
                running--;
                if (outcome == Outcome.REQUEUE) {
                    queue.addFirst(queued);
                }
                drain();
            }
        }
    }

    /**
     * Runs a task for a dispatch whose container already exists (taken over
     * after a restart). It counts as running, even past the limit: the
     * container is running whether or not we watch it.
     */
    synchronized void adopt(String id, Consumer<Execution> task) {
        running++;
        Execution execution = newExecution.apply(id);
        executions.put(id, execution);
        workers.execute(LogScope.wrap(id, () -> {
            try {
                task.accept(execution);
            } finally {
                executions.remove(id);
                synchronized (this) {
                    running--;
                    drain();
                }
            }
        }));
    }

    /** Whether this dispatch is queued or in flight here. */
    synchronized boolean tracks(String id) {
        return executions.containsKey(id) || queue.stream().anyMatch(q -> q.id().equals(id));
    }

    /** Ids of the dispatches in flight, for the drain on shutdown. */
    @Override
    public Set<String> inFlight() {
        return Set.copyOf(executions.keySet());
    }

    /** Removes a dispatch from the queue; false when it is not waiting there. */
    synchronized boolean dequeue(String id) {
        return queue.removeIf(q -> q.id().equals(id));
    }

    /** The in-flight execution of a dispatch, once it has left the queue. */
    Optional<Execution> execution(String id) {
        return Optional.ofNullable(executions.get(id));
    }

    /** Takes out the dispatches that have waited too long; the caller ends them. */
    synchronized List<Queued> expire() {
        Instant cutoff = clock.instant().minus(maxQueueWait);
        List<Queued> expired = new ArrayList<>();
        for (Iterator<Queued> it = queue.iterator(); it.hasNext(); ) {
            Queued q = it.next();
            if (q.queuedAt().isBefore(cutoff)) {
                it.remove();
                expired.add(q);
            }
        }
        return expired;
    }

    @Override
    public synchronized int running() {
        return running;
    }

    @Override
    public synchronized int queued() {
        return queue.size();
    }
}
