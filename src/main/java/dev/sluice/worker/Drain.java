package dev.sluice.worker;

import java.time.Clock;
import java.time.Instant;
import java.util.Set;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkus.runtime.ShutdownDelayInitiatedEvent;

/**
 * Graceful shutdown (SIGTERM, as Kubernetes sends it): readiness goes down and
 * new dispatches get 503 at once; running dispatches get the drain period to
 * finish; what still runs after it is left, labelled, for reconciliation by the
 * next worker; results not yet delivered stay in the outbox.
 */
@Singleton
public class Drain {

    private static final Logger LOG = Logger.getLogger(Drain.class);
    private static final long POLL_MILLIS = 200;

    /** What is running here: the dispatch lifecycle tells. */
    public interface InFlight {
        int running();

        Set<String> inFlight();

        /** Gives back what was claimed here and has not started, for other workers to run; returns how many. */
        int handBack();
    }

    @Inject
    InFlight work;

    @Inject
    WorkerLease lease;

    @Inject
    WorkerConfig config;

    @Inject
    Clock clock;

    private volatile boolean draining;

    public boolean draining() {
        return draining;
    }

    /**
     * Quarkus' pre-shutdown phase (quarkus.shutdown.delay-enabled): HTTP still
     * serves, so probes and clients get answers while running dispatches finish.
     */
    void onShutdown(@Observes ShutdownDelayInitiatedEvent event) {
        draining = true;
        int handedBack = work.handBack();
        if (handedBack > 0) {
            LOG.infof(
                    "draining: %d claimed dispatches that had not started wait in the queue for other workers",
                    handedBack);
        }
        Instant deadline = clock.instant().plus(config.drainPeriod());
        LOG.infof("draining: %d dispatches running, waiting up to %s", work.running(), config.drainPeriod());
        while (work.running() > 0 && clock.instant().isBefore(deadline)) {
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        int left = work.running();
        if (left == 0) {
            // Nothing left to take over: others need not wait for the lease to lapse.
            lease.release();
            LOG.info("drained: no dispatch left running");
        } else {
            LOG.warnf("drain period over: %d dispatches left running for reconciliation: %s", left, work.inFlight());
        }
    }
}
