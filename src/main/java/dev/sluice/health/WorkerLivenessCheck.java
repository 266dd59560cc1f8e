package dev.sluice.health;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

import dev.sluice.worker.Worker;

/**
 * Alive while the worker answers HTTP. Deliberately independent of the engine
 * and the store: a restart fixes neither, and a restart loop would lose the
 * dispatches this worker is streaming.
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
