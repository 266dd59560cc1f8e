package dev.sluice.record;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import dev.sluice.store.Jdbc;

/**
 * The queue in the store (ADR 0063): the dispatches that are queued and that
 * no worker has claimed. A worker with a free slot claims the oldest of a
 * tenant with {@code FOR UPDATE SKIP LOCKED}, so workers claiming at once
 * never wait for each other and never take one row twice. A dispatch pinned
 * to a worker (its secrets are in that worker's memory, its workspace on its
 * disk) is claimable by that worker alone.
 */
public final class DispatchQueue {

    /** A dispatch taken from the queue, and since when it waited. */
    public record Claimed(String id, Instant queuedAt) {}

    /**
     * What admission weighs: the unfinished dispatches in the store, all and
     * one tenant's, and how many workers hold a current lease.
     */
    public record Load(long unfinished, long tenantUnfinished, long liveWorkers) {}

    private static final String UNFINISHED = "status IN ('queued', 'starting', 'running')";
    private static final String CLAIMABLE =
            "status = 'queued' AND claimed_by IS NULL AND (pinned_to IS NULL OR pinned_to = ?)";
    private static final String PINNED_HERE = "status = 'queued' AND claimed_by IS NULL AND pinned_to = ?";

    private final Jdbc jdbc;
    private final String worker;

    /** The queue as {@code worker} sees it and claims from it. */
    public DispatchQueue(Jdbc jdbc, String worker) {
        this.jdbc = jdbc;
        this.worker = worker;
    }

    /**
     * The tenants with dispatches this worker may claim, the one whose oldest
     * has waited longest first; with {@code pinnedOnly}, only those that no other
     * worker may run.
     */
    public List<String> tenantsWaiting(boolean pinnedOnly) {
        return jdbc.query(
                "SELECT tenant, MIN(seq) AS oldest FROM dispatches WHERE " + (pinnedOnly ? PINNED_HERE : CLAIMABLE)
                        + " GROUP BY tenant ORDER BY oldest",
                row -> row.string("tenant"),
                worker);
    }

    /**
     * Claims the oldest dispatch of {@code tenant} this worker may run; empty
     * when there is none left, or every one left is being claimed by another.
     */
    public Optional<Claimed> claim(String tenant, boolean pinnedOnly) {
        return jdbc.transaction("claim a queued dispatch", tx -> {
            Optional<Claimed> next = tx.one(
                    "SELECT id, created_at FROM dispatches WHERE tenant = ? AND "
                            + (pinnedOnly ? PINNED_HERE : CLAIMABLE)
                            + " ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED",
                    row -> new Claimed(row.string("id"), row.instant("created_at")),
                    tenant,
                    worker);
            next.ifPresent(claimed -> tx.update(
                    "UPDATE dispatches SET claimed_by = ?, worker_id = ? WHERE id = ?", worker, worker, claimed.id()));
            return next;
        });
    }

    /** Gives back this worker's claim on a dispatch still queued; false when it holds none. */
    public boolean release(String id) {
        return jdbc.update(
                        "UPDATE dispatches SET claimed_by = NULL WHERE id = ? AND claimed_by = ? AND status = 'queued'",
                        id,
                        worker)
                > 0;
    }

    /** Gives back every claim this worker holds on queued dispatches: at its start, they were its previous life's. */
    public int releaseAll() {
        return jdbc.update(
                "UPDATE dispatches SET claimed_by = NULL WHERE claimed_by = ? AND status = 'queued'", worker);
    }

    /**
     * Gives back the claims of workers whose lease lapsed before {@code now} (or
     * that never held one) on queued dispatches any worker may run: they wait in
     * the queue again. Those pinned to a lost worker stay with it, to be closed.
     */
    public int releaseLost(Instant now) {
        return jdbc.update(
                "UPDATE dispatches SET claimed_by = NULL WHERE status = 'queued' AND pinned_to IS NULL "
                        + "AND claimed_by IS NOT NULL AND claimed_by <> ? AND NOT EXISTS "
                        + "(SELECT 1 FROM workers w WHERE w.id = dispatches.claimed_by AND w.lease_until >= ?)",
                worker,
                now);
    }

    /** Up to {@code limit} dispatches this worker may claim that were queued before {@code cutoff}, oldest first. */
    public List<Claimed> waitingSince(Instant cutoff, int limit) {
        return jdbc.query(
                "SELECT id, created_at FROM dispatches WHERE " + CLAIMABLE + " AND created_at < ? ORDER BY seq LIMIT ?",
                row -> new Claimed(row.string("id"), row.instant("created_at")),
                worker,
                cutoff,
                limit);
    }

    /** The store's unfinished dispatches, all and {@code tenant}'s, and the workers alive at {@code now}. */
    public Load load(String tenant, Instant now) {
        return jdbc.one(
                        "SELECT (SELECT COUNT(*) FROM dispatches WHERE " + UNFINISHED + "), "
                                + "(SELECT COUNT(*) FROM dispatches WHERE tenant = ? AND " + UNFINISHED + "), "
                                + "(SELECT COUNT(*) FROM workers WHERE lease_until >= ?)",
                        row -> new Load(row.number(1), row.number(2), row.number(3)),
                        tenant,
                        now)
                .orElseThrow();
    }
}
