package dev.sluice.dispatch;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.jboss.logging.Logger;

import dev.sluice.store.Jdbc;

/** Deletes the records of dispatches that finished longer ago than the record retention. */
final class RecordReaper {

    private static final Logger LOG = Logger.getLogger(RecordReaper.class);
    private static final int BATCH = 500;

    private final Jdbc jdbc;
    private final Duration retention;

    RecordReaper(Jdbc jdbc, Duration retention) {
        this.jdbc = jdbc;
        this.retention = retention;
    }

    /** Returns how many records it deleted. */
    int reap(Instant now) {
        List<String> expired = jdbc.query(
                "SELECT id FROM dispatches WHERE finished_at < ? ORDER BY finished_at LIMIT ?",
                row -> row.string(1),
                now.minus(retention),
                BATCH);
        int deleted = 0;
        for (String id : expired) {
            // Running dispatches are never deleted, whatever their times say.
            deleted += jdbc.update(
                    "DELETE FROM dispatches WHERE id = ? AND status IN " + DispatchTransitions.TERMINAL, id);
        }
        if (deleted > 0) {
            LOG.infof("deleted %d dispatch records finished over %s ago", deleted, retention);
        }
        return deleted;
    }
}
