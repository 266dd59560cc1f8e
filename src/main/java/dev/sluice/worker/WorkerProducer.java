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
import org.jboss.logging.Logger;

import dev.sluice.concurrent.Threads;
import dev.sluice.container.ContainerInventory;
import dev.sluice.store.Database;
import dev.sluice.store.Jdbc;
import io.quarkus.runtime.Startup;

class WorkerProducer {

    private static final Logger LOG = Logger.getLogger(WorkerProducer.class);

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

    /**
     * Read at start, so that a malformed secret stops the worker before it
     * serves anything, and a shared store without one says at once that
     * reads will not be relayed (ADR 0072).
     */
    @Produces
    @Singleton
    @Startup
    RelaySignatures relaySignatures(WorkerConfig config, Worker worker, Clock clock, Peers peers) {
        RelaySignatures signatures = RelaySignatures.of(config.relaySecrets(), worker.id(), clock);
        if (peers.shared() && !signatures.configured()) {
            LOG.warn("reads of dispatches another replica runs are not relayed, nor taken from another replica:"
                    + " sluice.worker.relay-secrets is not set. Their logs, artifacts and live events answer"
                    + " 503 owner-unreachable through any replica but their own; give every replica the same"
                    + " secret (ADR 0072)");
        }
        return signatures;
    }

    @Produces
    @Singleton
    PeerReads peerReads(Peers peers, RelaySignatures signatures, WorkerConfig config) {
        return new PeerReads(
                peers,
                signatures,
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
