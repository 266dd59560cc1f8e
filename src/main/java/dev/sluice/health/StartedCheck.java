package dev.sluice.health;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Startup;

import dev.sluice.store.Database;

/** Started once the store is migrated: the worker can take dispatches from here on. */
@Startup
@Singleton
public class StartedCheck implements HealthCheck {

    @Inject
    Database database;

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("started")
                .up()
                .withData("store", database.kind())
                .build();
    }
}
