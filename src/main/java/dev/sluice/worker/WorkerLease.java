package dev.sluice.worker;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import dev.sluice.store.Jdbc;

/** This worker's lease in the store: proof of life for the other replicas. */
public final class WorkerLease {

    private final Jdbc jdbc;
    private final String workerId;
    private final Duration lease;
    private final Clock clock;
    private final Instant startedAt;

    public WorkerLease(Jdbc jdbc, String workerId, Duration lease, Clock clock) {
        this.jdbc = jdbc;
        this.workerId = workerId;
        this.lease = lease;
        this.clock = clock;
        this.startedAt = clock.instant();
    }

    /**
     * Extends the lease from now. One at a time: the start-up renewal and the
     * first scheduled one may meet, and both would find no row to update and
     * insert it.
     */
    public synchronized void renew() {
        Instant until = clock.instant().plus(lease);
        jdbc.transaction("renew worker lease", tx -> {
            if (tx.update("UPDATE workers SET lease_until = ? WHERE id = ?", until, workerId) == 0) {
                tx.update(
                        "INSERT INTO workers (id, lease_until, started_at) VALUES (?, ?, ?)",
                        workerId,
                        until,
                        startedAt);
            }
            return null;
        });
    }

    /** Gives the lease up at once, so others need not wait for it to lapse (a clean exit with nothing left running). */
    public void release() {
        jdbc.update("UPDATE workers SET lease_until = ? WHERE id = ?", clock.instant(), workerId);
    }
}
