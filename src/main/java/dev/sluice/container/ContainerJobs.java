package dev.sluice.container;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.sluice.concurrent.Jobs;
import dev.sluice.concurrent.WarmUp;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.engine.EngineIdentity;
import dev.sluice.container.engine.EngineMonitor;
import dev.sluice.container.sandbox.NoneNetworkChoice;
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
    ContainerRuntime runtime;

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
            } else if (!versionSaid && engine.refusal().isPresent()) {
                versionSaid = true; // an engine first met after start that cannot serve this worker (ADR 0078)
                LOG.error(engine.refusal().get() + "; the engine stays down for this worker");
            }
        });
    }

    /**
     * Said once, the first time the engine answers: its version, and how
     * containers of {@code network: none} are isolated and why (ADR 0047), a
     * warning when they are left within reach of the network controller's
     * deadlock.
     */
    private void sayVersion() {
        EngineIdentity engine = clients.identity();
        NoneNetworkChoice.Choice choice = runtime.noneNetworkChoice(engine);
        String line = engine.describe() + "; " + choice.describe();
        if (choice.warn()) {
            LOG.warn(line);
        } else {
            LOG.info(line);
        }
    }
}
