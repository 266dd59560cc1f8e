package dev.sluice.callback;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.sluice.concurrent.Jobs;
import dev.sluice.concurrent.Threads;
import dev.sluice.record.DispatchConfig;
import dev.sluice.record.DispatchFinished;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;

/**
 * Sends due callbacks: every poll interval, and at once when a result is
 * stored or a redelivery asked; and deletes stored messages once they are
 * as old as the dispatch records that are deleted. Thin and never throwing;
 * the work is in {@link CallbackDelivery} and {@link CallbackStore}.
 */
@Singleton
class CallbackJobs {

    private static final Logger LOG = Logger.getLogger(CallbackJobs.class);

    @Inject
    CallbackDelivery delivery;

    @Inject
    CallbackStore outbox;

    @Inject
    Clock clock;

    @Inject
    DispatchConfig dispatches;

    private final ExecutorService waker = Executors.newSingleThreadExecutor(Threads.named("callback-wake-"));

    /** Before the first round: what a previous life of this worker claimed is sent again at once. */
    void atStart(@Observes @Priority(20) StartupEvent event) {
        Jobs.run("callback claims at start", delivery::resumeOwnClaims);
    }

    @Scheduled(every = "${sluice.callback.poll-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void poll() {
        send();
    }

    @Scheduled(
            every = "${sluice.dispatch.reaper-interval}",
            delayed = "${sluice.dispatch.reaper-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void reap() {
        Jobs.run("message reaper", () -> {
            Duration retention = dispatches.recordRetention();
            int deleted = outbox.reapMessages(clock.instant().minus(retention));
            if (deleted > 0) {
                LOG.infof("deleted %d callback messages that ended over %s ago", deleted, retention);
            }
        });
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
