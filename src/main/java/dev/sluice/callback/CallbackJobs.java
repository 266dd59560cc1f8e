package dev.sluice.callback;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.sluice.concurrent.Threads;
import dev.sluice.dispatch.DispatchFinished;
import io.quarkus.scheduler.Scheduled;

/**
 * Sends due callbacks: every poll interval, and at once when a result is
 * stored or a redelivery asked. Thin and never throwing; the work is in
 * {@link CallbackDelivery}.
 */
@Singleton
class CallbackJobs {

    private static final Logger LOG = Logger.getLogger(CallbackJobs.class);

    @Inject
    CallbackDelivery delivery;

    private final ExecutorService waker = Executors.newSingleThreadExecutor(Threads.named("callback-wake-"));

    @Scheduled(every = "${sluice.callback.poll-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void poll() {
        send();
    }

    /** A result was stored: its first attempt is due now, not at the next poll. */
    void finished(@Observes DispatchFinished event) {
        wake();
    }

    /** A group's batch or final callback was stored: due now, as a result is. */
    void queued(@Observes MessageQueued event) {
        wake();
    }

    void wake() {
        waker.execute(this::send);
    }

    private void send() {
        try {
            delivery.sendDue();
        } catch (RuntimeException e) {
            LOG.warnf("callback delivery round failed: %s", e.getMessage());
        }
    }
}
