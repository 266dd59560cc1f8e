package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLTimeoutException;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.sluice.testsupport.TestStores;

/** A bounded view of the store cancels a statement that runs past its timeout; the store itself is unchanged. */
class JdbcBoundedTest {

    /** Ten billion rows to count: hours of work for the embedded database. */
    private static final String ENDLESS = "SELECT COUNT(*) FROM SYSTEM_RANGE(1, 100000) a, SYSTEM_RANGE(1, 100000) b";

    private final Jdbc jdbc = new Jdbc(TestStores.h2());

    @Test
    @Timeout(120) // unbounded, the count would run for hours
    void aStatementPastItsTimeoutIsCancelled() {
        assertThatThrownBy(() -> jdbc.bounded(Duration.ofSeconds(1)).one(ENDLESS, row -> row.number(1)))
                .isInstanceOf(StoreException.class)
                .hasCauseInstanceOf(SQLTimeoutException.class);

        assertThat(jdbc.one("SELECT COUNT(*) FROM SYSTEM_RANGE(1, 10)", row -> row.number(1)))
                .contains(10L);
    }
}
