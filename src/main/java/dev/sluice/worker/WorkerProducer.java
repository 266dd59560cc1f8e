package dev.sluice.worker;

import java.time.Clock;
import java.time.Duration;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.sluice.container.ContainerInventory;
import dev.sluice.store.Jdbc;

class WorkerProducer {

    /** Millisecond ticks: what the store keeps, so a time read back equals the one written. */
    @Produces
    @Singleton
    Clock clock() {
        return Clock.tick(Clock.systemUTC(), Duration.ofMillis(1));
    }

    @Produces
    @Singleton
    Worker worker(WorkerConfig config) {
        return Worker.from(config);
    }

    @Produces
    @Singleton
    WorkerLease lease(Jdbc jdbc, Worker worker, WorkerConfig config, Clock clock) {
        return new WorkerLease(jdbc, worker.id(), config.lease(), clock);
    }

    @Produces
    @Singleton
    Reconciler reconciler(Reconciler.Lifecycle lifecycle, ContainerInventory containers, Clock clock, Worker worker) {
        return new Reconciler(lifecycle, containers, clock, worker.id());
    }
}
