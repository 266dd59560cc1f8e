package dev.sluice.record;

import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.store.Jdbc;

/**
 * The cancels a worker has to act on, whichever replica they were sent to
 * (ADR 0065): its dispatches that have left the queue, are not finished, and
 * whose stop was asked for. One query on the {@code (worker_id, status)} index.
 */
@Singleton
public class CancelRequests {

    private final Jdbc jdbc;

    @Inject
    public CancelRequests(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** Keys of {@code workerId}'s starting or running dispatches whose cancel was requested. */
    public List<String> of(String workerId) {
        return jdbc.query(
                "SELECT id FROM dispatches WHERE worker_id = ? AND status IN ('starting', 'running')"
                        + " AND cancel_requested = TRUE",
                row -> row.string("id"),
                workerId);
    }
}
