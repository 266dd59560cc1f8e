package dev.sluice.health;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import dev.sluice.store.Database;
import dev.sluice.store.StoreMonitor;

/**
 * Ready only while the store answers and hands out connections: it reads the
 * monitor's last bounded probe, so a hung store never hangs the probe.
 */
@Readiness
@Singleton
public class StoreHealthCheck implements HealthCheck {

    @Inject
    Database database;

    @Inject
    StoreMonitor monitor;

    @Override
    public HealthCheckResponse call() {
        StoreMonitor.Health last = monitor.last();
        var response = HealthCheckResponse.named("store")
                .status(last.answering())
                .withData("kind", database.kind())
                .withData("lastAnswer", last.lastAnswer().toString());
        if (last.problem() != null) {
            response.withData("problem", last.problem());
        }
        return response.build();
    }
}
