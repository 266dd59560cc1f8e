package dev.sluice.container;

import jakarta.inject.Singleton;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;

import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

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

    /** Pings on their own threads, so a hung engine holds a pinger, never a caller. */
    @Produces
    @Singleton
    EngineMonitor engineMonitor(DockerClients clients, Clock clock, DockerConfig config) {
        ExecutorService pinger = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "docker-ping");
            t.setDaemon(true);
            return t;
        });
        EngineMonitor monitor = new EngineMonitor(clients.host(), config.connectTimeout(), config.pingTimeout(), pinger,
                clock);
        monitor.check();
        return monitor;
    }
}
