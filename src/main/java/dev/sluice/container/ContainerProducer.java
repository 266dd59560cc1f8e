package dev.sluice.container;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.Executors;

import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.sluice.concurrent.Threads;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.engine.DockerConfig;
import dev.sluice.container.engine.EngineCall;
import dev.sluice.container.engine.EngineMonitor;
import dev.sluice.container.sandbox.ContainerConfig;

class ContainerProducer {

    private static final Logger LOG = Logger.getLogger(ContainerProducer.class);

    @Produces
    @Singleton
    DockerClients dockerClients(DockerConfig config, Event<EngineCall> calls) {
        return DockerClients.connect(config, calls::fire);
    }

    void close(@Disposes DockerClients clients) {
        try {
            clients.close();
        } catch (Exception e) {
            LOG.debugf("closing the Docker clients: %s", e.getMessage());
        }
    }

    @Produces
    @Singleton
    ContainerRuntime containerRuntime(DockerClients clients, ContainerConfig config) {
        return new ContainerRuntime(clients, config);
    }

    @Produces
    @Singleton
    EngineWarmUp engineWarmUp(ContainerRuntime runtime, DockerClients clients, DockerConfig config) {
        return new EngineWarmUp(runtime, clients, config.callTimeout());
    }

    @Produces
    @Singleton
    ContainerLogs containerLogs(DockerClients clients) {
        return new ContainerLogs(clients);
    }

    /** Probes of calls that were timing out run on a thread of their own: one may take the whole call timeout. */
    @Produces
    @Singleton
    EngineMonitor engineMonitor(DockerClients clients, Clock clock, DockerConfig config, ContainerConfig container) {
        EngineMonitor monitor = new EngineMonitor(
                clients,
                config.pingTimeout(),
                Executors.newSingleThreadExecutor(Threads.named("docker-probe-")),
                clock,
                engine -> engine.refusal(
                        container.runtimes().orElse(List.of()),
                        container.logDriver(),
                        container.noneNetwork() == ContainerConfig.NoneNetwork.BARE));
        monitor.check();
        // An engine that answers at start and cannot do what the configuration asks: the worker does not start.
        monitor.refusal().ifPresent(refusal -> {
            LOG.error(refusal);
            throw new IllegalStateException(refusal);
        });
        return monitor;
    }
}
