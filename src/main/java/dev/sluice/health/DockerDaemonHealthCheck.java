package dev.sluice.health;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import dev.sluice.container.engine.EngineMonitor;

/**
 * Ready only while the Docker engine answers: its ping, and its calls, which
 * must not be timing out (ADR 0016). Reads the monitor's last bounded ping
 * (refreshed every few seconds) and the calls' last outcomes, so a hung engine
 * never hangs the probe. {@code calls} in the data says whether calls are
 * answered or timing out, {@code problem} why the engine is down. Liveness does
 * not depend on the engine: restarting the worker would not bring it back.
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
                .withData("checkedAt", last.checkedAt().toString())
                .withData("calls", last.callsTimingOut() ? "timing out" : "answered");
        if (last.problem() != null) {
            response.withData("problem", last.problem());
        }
        return response.build();
    }
}
