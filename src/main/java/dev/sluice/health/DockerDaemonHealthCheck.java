package dev.sluice.health;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import dev.sluice.container.EngineMonitor;

/**
 * Ready only while the Docker engine answers. Reads the monitor's last bounded
 * ping (refreshed every few seconds), so a hung engine never hangs the probe.
 * Liveness does not depend on the engine: restarting the worker would not
 * bring the engine back.
 */
@Readiness
@Singleton
public class DockerDaemonHealthCheck implements HealthCheck {

    @Inject
    EngineMonitor engine;

    @Override
    public HealthCheckResponse call() {
        EngineMonitor.Availability last = engine.last();
        var response = HealthCheckResponse.named("docker")
                .status(last.available())
                .withData("checkedAt", last.checkedAt().toString());
        if (last.problem() != null) {
            response.withData("problem", last.problem());
        }
        return response.build();
    }
}
