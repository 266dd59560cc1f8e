package dev.sluice.concurrent;

import org.jboss.logging.Logger;

/** Scheduled jobs never throw: a failed round is logged and the next one runs as planned. */
public final class Jobs {

    private static final Logger LOG = Logger.getLogger(Jobs.class);

    private Jobs() {}

    /** Runs one step of a job, logging its failure instead of passing it on. */
    public static void run(String job, Runnable work) {
        try {
            work.run();
        } catch (RuntimeException e) {
            LOG.warnf("%s failed: %s", job, e.getMessage());
        }
    }
}
