package dev.sluice.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import javax.sql.DataSource;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.sluice.store.Jdbc;
import dev.sluice.testsupport.TestStores;

/**
 * The queue's figures on both databases: only queued rows count, per tenant,
 * with the oldest acceptance. The PostgreSQL database is shared with other
 * tests and kept as it is, so each run counts tenants of its own.
 */
class WaitingDispatchesIT {

    private static final Instant T0 = Instant.parse("2026-11-28T10:00:00.250Z");

    static Stream<Arguments> stores() {
        return Stream.of(
                Arguments.of("h2", TestStores.h2()),
                Arguments.of("postgresql", TestStores.postgres("sluice_waiting_test")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void onlyQueuedDispatchesCountPerTenantWithTheOldestAcceptance(String kind, DataSource ds) {
        Jdbc jdbc = TestStores.migrated(ds);
        StoredDispatches stored = new StoredDispatches(jdbc, StoredDispatches.NO_OUTBOX);
        DispatchTransitions transitions =
                new DispatchTransitions(jdbc, TestStores.json(), TestStores.bodiesFor(kind, jdbc));
        String run = UUID.randomUUID().toString().substring(0, 8);
        String alpha = "qa-" + run;
        String beta = "qb-" + run;

        stored.queued(alpha + ".started", null, "w-1", T0.minusSeconds(60));
        stored.queued(alpha + ".finished", null, "w-1", T0.minusSeconds(50));
        stored.queued(alpha + ".second", null, "w-2", T0.plusSeconds(5));
        stored.queued(alpha + ".first", null, "w-1", T0);
        stored.queued(beta + ".only", null, "w-3", T0.plusSeconds(30));
        assertThat(new DispatchQueue(jdbc, "w-1").claim(alpha, false))
                .map(DispatchQueue.Claimed::id)
                .contains(alpha + ".started");
        assertThat(transitions.markStarting(alpha + ".started", "w-1")).isTrue();
        assertThat(stored.finish(StoredDispatches.result(alpha + ".finished", Dispatch.Status.CANCELLED, "", T0)))
                .isTrue();

        List<WaitingDispatches.Tenant> counted = new WaitingDispatches(jdbc)
                .count(Duration.ofSeconds(2)).stream()
                        .filter(t -> t.tenant().endsWith(run))
                        .toList();

        assertThat(counted)
                .containsExactlyInAnyOrder(
                        new WaitingDispatches.Tenant(alpha, 2, T0),
                        new WaitingDispatches.Tenant(beta, 1, T0.plusSeconds(30)));
    }
}
