package dev.sluice.worker;

import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;

import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.ConfigProvider;

import dev.sluice.concurrent.Threads;
import dev.sluice.container.ContainerInventory;
import dev.sluice.store.Database;
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
        return new WorkerLease(jdbc, worker.id(), address(config).toString(), config.lease(), clock);
    }

    /** Where the API listens, unless {@code sluice.worker.advertised-url} says where the others reach it. */
    private static URI address(WorkerConfig config) {
        var settings = ConfigProvider.getConfig();
        return Addresses.of(
                config.advertisedUrl(),
                settings.getOptionalValue("quarkus.http.host", String.class).orElse("0.0.0.0"),
                settings.getOptionalValue("quarkus.http.port", Integer.class).orElse(8080));
    }

    @Produces
    @Singleton
    Peers peers(Jdbc jdbc, Clock clock, Database database) {
        return new Peers(jdbc, clock, !database.kind().equals("h2"));
    }

    @Produces
    @Singleton
    PeerReads peerReads(Peers peers, Worker worker, WorkerConfig config) {
        return new PeerReads(
                peers,
                worker.id(),
                config.peerTimeout(),
                Executors.newSingleThreadScheduledExecutor(Threads.named("relay-deadline-")));
    }

    void closePeerReads(@Disposes PeerReads reads) throws IOException {
        reads.close();
    }

    @Produces
    @Singleton
    Reconciler reconciler(Reconciler.Lifecycle lifecycle, ContainerInventory containers, Clock clock, Worker worker) {
        return new Reconciler(lifecycle, containers, clock, worker.id());
    }

    @Produces
    @Singleton
    Reconciliation reconciliation(Reconciler reconciler, Clock clock) {
        return new Reconciliation(reconciler, clock, Reconciliation.testDelay());
    }
}
