package dev.sluice.image;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.concurrent.Jobs;
import io.quarkus.scheduler.Scheduled;

/** The scheduled job of images: the collection of those the worker pulled and no dispatch uses (ADR 0062). */
@Singleton
class ImageJobs {

    @Inject
    ImageCollector collector;

    @Scheduled(
            every = "${sluice.images.collect-interval}",
            delayed = "${sluice.images.collect-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void collect() {
        Jobs.run("image collector", collector::collect);
    }
}
