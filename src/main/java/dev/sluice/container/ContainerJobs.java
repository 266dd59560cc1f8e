package dev.sluice.container;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.concurrent.Jobs;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;

/** The engine's health, checked on every tick, and the clients warmed at start. */
@Singleton
class ContainerJobs {

    @Inject
    EngineMonitor engine;

    @Inject
    ContainerRuntime runtime;

    /** Only an engine that answers its (bounded) ping is warmed up: a hung one must not hold up the start. */
    void atStart(@Observes @Priority(20) StartupEvent event) {
        Jobs.run("warm-up", () -> {
            if (engine.check().available()) {
                runtime.warmUp();
            }
        });
    }

    /** Queued dispatches start only while the engine answers; admission and readiness read this answer. */
    @Scheduled(every = "${sluice.dispatch.tick}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void checkEngine() {
        Jobs.run("engine check", engine::check);
    }
}
