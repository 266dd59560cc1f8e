package dev.sluice.health;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import dev.sluice.store.Database;

/** Ready only while the dispatch store answers a trivial query within two seconds. */
@Readiness
@Singleton
public class StoreHealthCheck implements HealthCheck {

    private static final int TIMEOUT_SECONDS = 2;

    @Inject
    Database database;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("store").withData("kind", database.kind());
        try (Connection c = database.dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.setQueryTimeout(TIMEOUT_SECONDS);
            s.execute("SELECT 1");
            return response.up().build();
        } catch (SQLException e) {
            return response.down()
                    .withData("problem", "the store did not answer")
                    .build();
        }
    }
}
