package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.TestStores;

/** Every write through {@link Jdbc} is announced once, named from the code, whether it committed or failed. */
class StoreWriteTest {

    private final List<StoreWrite> writes = new CopyOnWriteArrayList<>();
    private final Jdbc jdbc = new Jdbc(TestStores.h2(), writes::add);

    @Test
    void statementsAreNamedByVerbAndTableTransactionsByTheirOperation() {
        assertThat(StoreWrite.ofStatement("UPDATE dispatches SET status = ? WHERE id = ?"))
                .isEqualTo("update_dispatches");
        assertThat(StoreWrite.ofStatement("  insert into callbacks (a) values (?)"))
                .isEqualTo("insert_callbacks");
        assertThat(StoreWrite.ofStatement("DELETE FROM dispatches WHERE finished_at < ?"))
                .isEqualTo("delete_dispatches");
        assertThat(StoreWrite.ofStatement("CREATE TABLE t (a INT)")).isEqualTo("other");
        assertThat(StoreWrite.ofTransaction("close dispatches of lost workers"))
                .isEqualTo("close_dispatches_of_lost_workers");
    }

    @Test
    void writesAreAnnouncedCommittedOrFailedAndReadsAreNot() {
        jdbc.update("CREATE TABLE t (id INT PRIMARY KEY)");
        assertThat(jdbc.insertIfAbsent("INSERT INTO t (id) VALUES (?)", 1)).isTrue();
        assertThat(jdbc.insertIfAbsent("INSERT INTO t (id) VALUES (?)", 1)).isFalse();
        jdbc.transaction("renew worker lease", tx -> tx.update("UPDATE t SET id = 2 WHERE id = 1"));
        assertThatThrownBy(() -> jdbc.update("UPDATE missing SET id = 1")).isInstanceOf(StoreException.class);
        jdbc.query("SELECT id FROM t", row -> row.number(1));

        assertThat(writes)
                .extracting(StoreWrite::operation, StoreWrite::failed)
                .containsExactly(
                        tuple("other", false),
                        tuple("insert_t", false),
                        tuple("insert_t", false), // the key existed: nothing written, and nothing failed
                        tuple("renew_worker_lease", false),
                        tuple("update_missing", true));
        assertThat(writes).allSatisfy(w -> assertThat(w.took()).isPositive());
    }
}
