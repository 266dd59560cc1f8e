package dev.sluice.callback;

import java.util.Locale;
import java.util.UUID;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import dev.sluice.store.Jdbc;
import dev.sluice.testsupport.TestStores;

/**
 * V8 moves both outbox tables into one on PostgreSQL (ADR 0050), in a schema
 * of its own in the test database (scripts/postgres.sh), so that it starts
 * from V7 whatever other tests left there.
 */
class OutboxMigrationIT {

    private final String schema =
            "outbox_v8_" + UUID.randomUUID().toString().replace("-", "").toLowerCase(Locale.ROOT);

    @AfterEach
    void drop() {
        new Jdbc(TestStores.postgres()).update("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }

    @Test
    void everyDeliveryAndAttemptOfAV7StoreArrivesInTheOneOutbox() {
        PGSimpleDataSource data = (PGSimpleDataSource) TestStores.postgres();
        data.setCurrentSchema(schema);
        OutboxMigration.assertMovesIntact(
                Flyway.configure()
                        .dataSource(TestStores.postgres())
                        .schemas(schema)
                        .locations("classpath:db/migration"),
                data);
    }
}
