package dev.sluice.callback;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.TestStores;

/** V8 moves both outbox tables into one on the embedded store (ADR 0050); on PostgreSQL: {@link OutboxMigrationIT}. */
class OutboxMigrationTest {

    @Test
    void everyDeliveryAndAttemptOfAV7StoreArrivesInTheOneOutbox() {
        DataSource h2 = TestStores.h2();
        OutboxMigration.assertMovesIntact(Flyway.configure().dataSource(h2).locations("classpath:db/migration"), h2);
    }
}
