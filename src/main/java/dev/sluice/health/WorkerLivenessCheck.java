package dev.sluice.health;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

import dev.sluice.worker.Worker;

/**
 * Alive while the worker answers HTTP. Independent of the engine and of
 * PostgreSQL: a restart fixes neither, and a restart loop would lose the
 * dispatches this worker is streaming. (An embedded store that stalled is the
 * one exception, {@link StoreStallCheck}.)
 */
@Liveness
@Singleton
public class WorkerLivenessCheck implements HealthCheck {

    @Inject
    Worker worker;

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("worker")
                .up()
                .withData("id", worker.id())
                .build();
    }
}
