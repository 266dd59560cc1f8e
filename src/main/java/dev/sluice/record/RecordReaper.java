package dev.sluice.record;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.jboss.logging.Logger;

import dev.sluice.artifact.ArtifactStore;
import dev.sluice.store.Jdbc;
import dev.sluice.store.ResultBodies;

/** Deletes the records of dispatches that finished longer ago than the record retention, and what is kept with them. */
public final class RecordReaper {

    private static final Logger LOG = Logger.getLogger(RecordReaper.class);
    private static final int BATCH = 500;

    /** An expired record, and the file its result is in, if any. */
    private record Expired(String id, String resultFile) {}

    private final Jdbc jdbc;
    private final ResultBodies bodies;
    private final ArtifactStore artifacts;
    private final Duration retention;

    public RecordReaper(Jdbc jdbc, ResultBodies bodies, ArtifactStore artifacts, Duration retention) {
        this.jdbc = jdbc;
        this.bodies = bodies;
        this.artifacts = artifacts;
        this.retention = retention;
    }

    /** Returns how many records it deleted. */
    public int reap(Instant now) {
        List<Expired> expired = jdbc.query(
                "SELECT id, result_file FROM dispatches WHERE finished_at < ? ORDER BY finished_at LIMIT ?",
                row -> new Expired(row.string(1), row.string(2)),
                now.minus(retention),
                BATCH);
        int deleted = 0;
        for (Expired e : expired) {
            // Running dispatches are never deleted, whatever their times say.
            if (jdbc.update("DELETE FROM dispatches WHERE id = ? AND status IN " + DispatchTransitions.TERMINAL, e.id())
                    > 0) {
                bodies.delete(e.resultFile()); // the row first: a crash in between leaves a file the sweep takes
                artifacts.delete(e.id()); // kept longer than the record, they would have no record to be read by
                deleted++;
            }
        }
        if (deleted > 0) {
            LOG.infof("deleted %d dispatch records finished over %s ago", deleted, retention);
        }
        return deleted;
    }
}
