package dev.sluice.concurrent;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * A pool the tenants of a worker share (ADR 0073): a total that all of them
 * together never pass, and a share that no tenant passes alone, so one tenant
 * can hold the whole pool from nobody. What is counted is the pool's own unit
 * (reads, streams, deliveries, pulls, waits, bytes): a taker says how much it
 * takes and gives back the same. It counts and never waits; whoever is
 * refused decides what refusal means (a 429, a turn in a queue).
 */
public final class SharedPool {

    /** Whether something was taken, or which bound refused it. */
    public enum Taken {
        TAKEN,
        /** The total would be passed. */
        POOL_FULL,
        /** The tenant's share would be passed. */
        SHARE_FULL
    }

    private final long total;
    private final long share;
    private final Map<String, Long> held = new HashMap<>();
    private long inUse;

    /**
     * @param total what every tenant together may hold
     * @param share what one tenant may hold; at most {@code total}
     */
    public SharedPool(long total, long share) {
        if (total < 1 || share < 1) {
            throw new IllegalArgumentException("a pool and its share hold at least 1");
        }
        this.total = total;
        this.share = Math.min(share, total);
    }

    /**
     * Takes {@code amount} for {@code tenant}, or takes nothing and says which
     * bound refused it: the total when both would be passed.
     */
    public synchronized Taken take(String tenant, long amount) {
        if (inUse + amount > total) {
            return Taken.POOL_FULL;
        }
        long mine = held.getOrDefault(tenant, 0L);
        if (mine + amount > share) {
            return Taken.SHARE_FULL;
        }
        held.put(tenant, mine + amount);
        inUse += amount;
        return Taken.TAKEN;
    }

    /**
     * Takes {@code amount} for {@code tenant}, or throws what {@code refusal}
     * makes of the bound that refused it: a pool whose refusal is an answer
     * (a {@code 429}) says it once.
     */
    public void takeOrThrow(String tenant, long amount, Function<Taken, ? extends RuntimeException> refusal) {
        Taken taken = take(tenant, amount);
        if (taken != Taken.TAKEN) {
            throw refusal.apply(taken);
        }
    }

    /**
     * Counts {@code amount} as {@code tenant}'s whatever the bounds: what it
     * held before the count began (files kept across a restart), which only
     * keeps it from taking more until it gives some back.
     */
    public synchronized void add(String tenant, long amount) {
        held.merge(tenant, amount, Long::sum);
        inUse += amount;
    }

    /** Gives back {@code amount} that {@code tenant} took. */
    public synchronized void give(String tenant, long amount) {
        long mine = held.getOrDefault(tenant, 0L) - amount;
        if (mine < 0) {
            throw new IllegalStateException("tenant " + tenant + " gave back more than it took");
        }
        if (mine == 0) {
            held.remove(tenant);
        } else {
            held.put(tenant, mine);
        }
        inUse -= amount;
    }

    /** What {@code tenant} could take now: the least of what its share and the total have left. */
    public synchronized long room(String tenant) {
        return Math.max(0, Math.min(share - held.getOrDefault(tenant, 0L), total - inUse));
    }

    /** What {@code tenant} holds. */
    public synchronized long held(String tenant) {
        return held.getOrDefault(tenant, 0L);
    }

    /** What every tenant holds together. */
    public synchronized long inUse() {
        return inUse;
    }

    public long total() {
        return total;
    }

    public long share() {
        return share;
    }
}
