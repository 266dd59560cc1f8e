package dev.sluice.health;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import dev.sluice.worker.Drain;

/** Not ready once shutdown has begun, so the load balancer stops sending dispatches at once. */
@Readiness
@Singleton
public class DrainingHealthCheck implements HealthCheck {

    @Inject
    Drain drain;

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("accepting").status(!drain.draining()).build();
    }
}
