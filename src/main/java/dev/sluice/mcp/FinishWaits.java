package dev.sluice.mcp;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchFinished;
import dev.sluice.record.DispatchQueries;

/**
 * Waits, up to a bound, for a dispatch to end: woken by the announcement of
 * its end, and reading the record after, so a lost announcement (or one made
 * by another worker) only makes the wait run to its bound.
 */
@Singleton
class FinishWaits {

    private final Function<String, Dispatch> records;
    /** Each waiter's own future, by dispatch key. */
    private final ConcurrentHashMap<String, Set<CompletableFuture<Void>>> waits = new ConcurrentHashMap<>();

    @Inject
    FinishWaits(DispatchQueries queries) {
        this(queries::get);
    }

    FinishWaits(Function<String, Dispatch> records) {
        this.records = records;
    }

    void finished(@Observes DispatchFinished event) {
        Set<CompletableFuture<Void>> waiting = waits.remove(event.dispatchId());
        if (waiting != null) {
            waiting.forEach(w -> w.complete(null));
        }
    }

    /** The dispatch once it is terminal, or as it is when {@code bound} has passed. */
    Dispatch await(String id, Duration bound) {
        if (bound.isZero()) {
            return records.apply(id);
        }
        CompletableFuture<Void> wait = new CompletableFuture<>();
        waits.computeIfAbsent(id, k -> ConcurrentHashMap.newKeySet()).add(wait);
        try {
            // Read after registering: a dispatch that ended before is seen here, one that ends after wakes us.
            Dispatch now = records.apply(id);
            if (now.status().terminal()) {
                return now;
            }
            wait.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // the bound passed: the record as it is now
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException("a wait is never completed exceptionally", e);
        } finally {
            waits.computeIfPresent(id, (k, waiting) -> {
                waiting.remove(wait);
                return waiting.isEmpty() ? null : waiting;
            });
        }
        return records.apply(id);
    }
}
