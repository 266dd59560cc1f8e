package dev.sluice.container;

import java.time.Clock;

import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

class ContainerProducer {

    private static final Logger LOG = Logger.getLogger(ContainerProducer.class);

    @Produces
    @Singleton
    DockerClients dockerClients(DockerConfig config) {
        return DockerClients.connect(config);
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
    ContainerLogs containerLogs(DockerClients clients) {
        return new ContainerLogs(clients);
    }

    @Produces
    @Singleton
    EngineMonitor engineMonitor(DockerClients clients, Clock clock, DockerConfig config) {
        EngineMonitor monitor = new EngineMonitor(clients, config.pingTimeout(), clock);
        monitor.check();
        return monitor;
    }
}
