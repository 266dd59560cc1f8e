package dev.sluice.run;

import java.util.concurrent.Semaphore;
import java.util.function.BooleanSupplier;

/**
 * The memory that results being finished may take at once
 * ({@code sluice.dispatch.finish-memory}). Finishing a result briefly holds a
 * few copies of what its collectors kept (the bounded texts, the result's
 * JSON, what the store is handed); when many dispatches end together they take
 * turns, so the heap a worker needs is bounded by its settings, not by how
 * many end at the same moment. A result larger than the whole budget waits for
 * all of it and then runs alone.
 */
final class FinishingBudget {

    /** Copies of the kept output that finishing holds at its peak: the bounded texts, and the JSON where it is held (PostgreSQL). */
    static final int COPIES = 2;

    private final Semaphore kibibytes;
    private final int total;

    FinishingBudget(long bytes) {
        this.total = (int) Math.max(1, Math.min(Integer.MAX_VALUE, bytes >> 10));
        this.kibibytes = new Semaphore(total, true);
    }

    /** Runs {@code work} once {@code bytes} of the budget are free, and gives them back after. */
    boolean within(long bytes, BooleanSupplier work) {
        int permits = (int) Math.max(1, Math.min(total, (bytes + 1023) >> 10));
        kibibytes.acquireUninterruptibly(permits);
        try {
            return work.getAsBoolean();
        } finally {
            kibibytes.release(permits);
        }
    }
}
