package dev.sluice.container;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.concurrent.Jobs;
import dev.sluice.concurrent.WarmUp;
import io.quarkus.scheduler.Scheduled;

/** The engine's health, checked on every tick, and the engine's part of a dispatch warmed after start. */
@Singleton
class ContainerJobs {

    @Inject
    EngineMonitor engine;

    @Inject
    EngineWarmUp warmUp;

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
        Jobs.run("engine check", engine::check);
    }
}
