package dev.sluice.dispatch;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.jboss.logging.Logger;

/** Deletes the records of dispatches that finished longer ago than the record retention. */
public class RecordReaper {

    private static final Logger LOG = Logger.getLogger(RecordReaper.class);
    private static final int BATCH = 500;

    private final DispatchStore store;
    private final Duration retention;

    public RecordReaper(DispatchStore store, Duration retention) {
        this.store = store;
        this.retention = retention;
    }

    /** Returns how many records it deleted. */
    public int reap(Instant now) {
        List<String> expired = store.finishedBefore(now.minus(retention), BATCH);
        int deleted = 0;
        for (String id : expired) {
            if (store.deleteFinished(id)) {
                deleted++;
            }
        }
        if (deleted > 0) {
            LOG.infof("deleted %d dispatch records finished over %s ago", deleted, retention);
        }
        return deleted;
    }
}
