package dev.sluice.metrics;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.callback.CallbackStore;
import dev.sluice.concurrent.Jobs;
import dev.sluice.record.WaitingDispatches;
import io.quarkus.scheduler.Scheduled;

/** Figures that need a query, read on a schedule so that a scrape never waits on the store. */
@Singleton
class MetricsJobs {

    @Inject
    CallbackMeters callbacks;

    @Inject
    CallbackStore outbox;

    @Inject
    QueueMeters queue;

    @Inject
    WaitingDispatches waiting;

    @Inject
    MetricsConfig config;

    @Scheduled(every = "${sluice.metrics.outbox-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void countOutbox() {
        Jobs.run("outbox count", () -> callbacks.countOutbox(outbox, config.outboxTimeout()));
    }

    @Scheduled(every = "${sluice.metrics.queue-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void countQueue() {
        Jobs.run("queue count", () -> queue.count(waiting, config.queueTimeout()));
    }
}
