package dev.sluice.worker;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import dev.sluice.store.Jdbc;

/** This worker's lease in the store: proof of life for the other replicas. */
public final class WorkerLease {

    private final Jdbc jdbc;
    private final String workerId;
    private final String address;
    private final Duration lease;
    private final Clock clock;
    private final Instant startedAt;

    /** @param address where the other replicas reach this one (ADR 0065); {@code null} for nowhere */
    public WorkerLease(Jdbc jdbc, String workerId, String address, Duration lease, Clock clock) {
        this.jdbc = jdbc;
        this.workerId = workerId;
        this.address = address;
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
            if (tx.update(
                            "UPDATE workers SET lease_until = ?, advertised_url = ? WHERE id = ?",
                            until,
                            address,
                            workerId)
                    == 0) {
                tx.update(
                        "INSERT INTO workers (id, lease_until, started_at, advertised_url) VALUES (?, ?, ?, ?)",
                        workerId,
                        until,
                        startedAt,
                        address);
            }
            return null;
        });
    }

    /** Gives the lease up at once, so others need not wait for it to lapse (a clean exit with nothing left running). */
    public void release() {
        jdbc.update("UPDATE workers SET lease_until = ? WHERE id = ?", clock.instant(), workerId);
    }
}
