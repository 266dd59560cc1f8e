package dev.sluice.container;

import jakarta.inject.Singleton;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;

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
}
