package dev.sluice.dispatch;

import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import javax.sql.DataSource;

/** This worker's lease in the store: proof of life for the other replicas. */
public final class WorkerLease {

    private final DataSource dataSource;
    private final String workerId;
    private final Duration lease;
    private final Clock clock;
    private final Instant startedAt;

    public WorkerLease(DataSource dataSource, String workerId, Duration lease, Clock clock) {
        this.dataSource = dataSource;
        this.workerId = workerId;
        this.lease = lease;
        this.clock = clock;
        this.startedAt = clock.instant();
    }

    /** Extends the lease from now. */
    public void renew() {
        Instant until = clock.instant().plus(lease);
        Jdbc.transaction(dataSource, "renew worker lease", c -> {
            try (PreparedStatement update = c.prepareStatement("UPDATE workers SET lease_until = ? WHERE id = ?")) {
                Jdbc.bind(update, until, workerId);
                if (update.executeUpdate() > 0) {
                    return null;
                }
            }
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO workers (id, lease_until, started_at) VALUES (?, ?, ?)")) {
                Jdbc.bind(insert, workerId, until, startedAt);
                insert.executeUpdate();
            }
            return null;
        });
    }

    /** Gives the lease up at once, so others need not wait for it to lapse (a clean exit with nothing left running). */
    public void release() {
        Jdbc.update(dataSource, "release worker lease", "UPDATE workers SET lease_until = ? WHERE id = ?",
                clock.instant(), workerId);
    }

    public Duration period() {
        return lease.dividedBy(3);
    }
}
