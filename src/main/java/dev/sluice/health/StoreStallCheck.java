package dev.sluice.health;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

import dev.sluice.store.StoreMonitor;

/**
 * Not alive once the embedded store has not answered for the stall timeout:
 * it lives in this process, so a restart is its remedy (and reconciliation
 * takes up what the worker held). PostgreSQL never fails liveness: a restart of
 * the worker would not mend it, and readiness already says it is down.
 */
@Liveness
@Singleton
public class StoreStallCheck implements HealthCheck {

    @Inject
    StoreMonitor monitor;

    @Override
    public HealthCheckResponse call() {
        StoreMonitor.Health last = monitor.last();
        boolean stalled = monitor.embedded() && last.stalled();
        var response = HealthCheckResponse.named("embedded-store").status(!stalled);
        if (stalled) {
            response.withData("problem", last.problem());
        }
        return response.build();
    }
}
