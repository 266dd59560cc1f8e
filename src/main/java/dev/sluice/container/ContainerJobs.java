package dev.sluice.container;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import com.github.dockerjava.api.model.Version;

import dev.sluice.concurrent.Jobs;
import dev.sluice.concurrent.WarmUp;
import io.quarkus.scheduler.Scheduled;

/**
 * The engine's health, checked on every tick (its version said the first time
 * it answers), and the engine's part of a dispatch warmed after start.
 */
@Singleton
class ContainerJobs {

    private static final Logger LOG = Logger.getLogger(ContainerJobs.class);

    @Inject
    EngineMonitor engine;

    @Inject
    EngineWarmUp warmUp;

    @Inject
    DockerClients clients;

    @Inject
    ContainerConfig config;

    /** Read and written only by the engine check, which never runs twice at once. */
    private volatile boolean versionSaid;

    /** Only an engine that answers its (bounded) ping is warmed up: each call to a hung one would take its timeout. */
    void warmUp(@ObservesAsync @Priority(WarmUp.CONTAINER) WarmUp event) {
        event.step("container", () -> {
            EngineMonitor.Availability now = engine.check();
            if (!now.available()) {
                throw new IllegalStateException(now.problem());
            }
            warmUp.run(event.unknownId());
        });
    }

    /** Queued dispatches start only while the engine answers; admission and readiness read this answer. */
    @Scheduled(every = "${sluice.dispatch.tick}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void checkEngine() {
        Jobs.run("engine check", () -> {
            if (engine.check().available() && !versionSaid) {
                versionSaid = true; // once: an engine that will not say its version is not asked on every tick
                sayVersion();
            }
        });
    }

    /**
     * Said once, the first time the engine answers: its version, and whether it
     * has the network controller's deadlock that Docker's {@code none} network
     * can meet (ADR 0042).
     */
    private void sayVersion() {
        Version version = clients.control().versionCmd().exec();
        String engine = "Docker engine " + version.getVersion() + ", API " + version.getApiVersion();
        if (config.noneNetwork() == ContainerConfig.NoneNetwork.DOCKER
                && EngineVersions.hasNetworkControllerDeadlock(version.getVersion())) {
            LOG.warnf(
                    "%s: it can deadlock its network controller when containers exit together (moby/moby#46661,"
                            + " fixed in 20.10.27); sluice.container.none-network=bare, the default, keeps"
                            + " containers of network none out of it (ADR 0043)",
                    engine);
        } else {
            LOG.info(engine);
        }
    }
}
