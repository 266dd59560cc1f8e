package dev.sluice.mcp;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.actions.DispatchActions;
import dev.sluice.concurrent.SharedPool;
import dev.sluice.concurrent.Threads;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchFinished;
import dev.sluice.record.RequestRefused;

/**
 * The waits of {@code dispatch_subagent} (ADR 0073): each ends when the
 * announcement of its dispatch's end comes, or when its bound passes, and
 * holds no thread meanwhile: it is a future that the announcement or a timer
 * completes, and the tool answers from it. The record is read once after the
 * wait is registered, so an end that came before is seen, and the answer is
 * read from the record after, so a lost announcement (or one made by another
 * worker) only makes the wait run to its bound. The waits held at once are
 * counted per tenant ({@code sluice.mcp.max-waits},
 * {@code max-waits-per-tenant}): past them a wait is refused before anything
 * is accepted.
 */
@Singleton
class FinishWaits {

    /** Where a wait's bound is kept: runs {@code task} after {@code delay}, and gives back what cancels it. */
    @FunctionalInterface
    interface Deadlines {
        Runnable after(Duration delay, Runnable task);
    }

    /** A tenant's place among the waits, from before its dispatch is accepted until its answer is made. */
    final class Held implements AutoCloseable {
        private final String tenant;
        private final AtomicBoolean released = new AtomicBoolean();

        private Held(String tenant) {
            this.tenant = tenant;
        }

        @Override
        public void close() {
            if (released.compareAndSet(false, true)) {
                held.give(tenant, 1);
            }
        }
    }

    private final Function<String, Dispatch> records;
    private final Deadlines deadlines;
    private final SharedPool held;
    private final ScheduledExecutorService timer;
    /** Each waiter's own future, by dispatch key. */
    private final ConcurrentHashMap<String, Set<CompletableFuture<Void>>> waits = new ConcurrentHashMap<>();

    @Inject
    FinishWaits(DispatchActions actions, McpConfig config) {
        this.timer = Executors.newSingleThreadScheduledExecutor(Threads.named("mcp-wait-bound-"));
        this.records = actions::record;
        this.deadlines = (delay, task) -> {
            var scheduled = timer.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
            return () -> scheduled.cancel(false);
        };
        this.held = new SharedPool(config.maxWaits(), config.maxWaitsPerTenant());
    }

    FinishWaits(Function<String, Dispatch> records, Deadlines deadlines, SharedPool held) {
        this.records = records;
        this.deadlines = deadlines;
        this.held = held;
        this.timer = null;
    }

    @PreDestroy
    void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    void finished(@Observes DispatchFinished event) {
        Set<CompletableFuture<Void>> waiting = waits.remove(event.dispatchId());
        if (waiting != null) {
            waiting.forEach(w -> w.complete(null));
        }
    }

    /**
     * A place among the waits for {@code tenant}, to be closed once the
     * answer is made; refused with {@code 429 too-many-waits} when the
     * tenant's share, or every tenant's together, is taken.
     */
    Held hold(String tenant) {
        held.takeOrThrow(
                tenant,
                1,
                taken -> new RequestRefused(
                        RequestRefused.Reason.TOO_MANY_WAITS,
                        (taken == SharedPool.Taken.SHARE_FULL
                                        ? "this tenant has as many dispatch_subagent calls waiting as"
                                                + " sluice.mcp.max-waits-per-tenant allows"
                                        : "the worker has as many dispatch_subagent calls waiting as"
                                                + " sluice.mcp.max-waits allows")
                                + "; call again with a shorter wait, or none, later"));
        return new Held(tenant);
    }

    /**
     * Completes once the dispatch is terminal, or once {@code bound} has
     * passed, whichever comes first; never exceptionally. It reads the record
     * once, so it is called off the event loop; what follows it holds nothing.
     */
    CompletableFuture<Void> until(String key, Duration bound) {
        CompletableFuture<Void> wait = new CompletableFuture<>();
        if (bound.isZero()) {
            wait.complete(null);
            return wait;
        }
        waits.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(wait);
        Runnable cancel = deadlines.after(bound, () -> wait.complete(null));
        wait.whenComplete((done, never) -> {
            cancel.run();
            waits.computeIfPresent(key, (k, waiting) -> {
                waiting.remove(wait);
                return waiting.isEmpty() ? null : waiting;
            });
        });
        // Read after registering: a dispatch that ended before is seen here, one that ends after wakes the wait.
        if (records.apply(key).status().terminal()) {
            wait.complete(null);
        }
        return wait;
    }

    /** Waits registered now, for every dispatch together. */
    int waiting() {
        return waits.values().stream().mapToInt(Set::size).sum();
    }
}
