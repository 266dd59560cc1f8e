package dev.sluice.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import javax.sql.DataSource;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.sluice.store.Jdbc;
import dev.sluice.testsupport.StoreFixtures;
import dev.sluice.testsupport.TestStores;
import dev.sluice.worker.WorkerLease;

/**
 * The store's queue (ADR 0063) on both databases: workers claiming at once
 * take every row exactly once, a pinned row is its worker's alone, and a lost
 * worker's claims go back to the queue.
 */
class DispatchQueueIT {

    private static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");
    private static final DispatchSpec ANYONES = StoreFixtures.specWithoutSecrets("img:1", null);
    private static final DispatchSpec WITH_SECRET = StoreFixtures.spec("img:1", null);

    static Stream<Arguments> stores() {
        return Stream.of(
                Arguments.of("h2", TestStores.h2()),
                Arguments.of("postgresql", TestStores.postgres("sluice_queue_test")));
    }

    private static DispatchStore store(String kind, Jdbc jdbc) {
        return new DispatchStore(jdbc, TestStores.json(), TestStores.bodiesFor(kind, jdbc));
    }

    private static void insert(DispatchStore store, String key, DispatchSpec spec, String worker, int second) {
        assertThat(store.insert(new DispatchStore.NewDispatch(key, spec, "fp", worker, T0.plusSeconds(second))))
                .isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void workersClaimingAtOnceTakeEveryDispatchExactlyOnce(String kind, DataSource ds) throws Exception {
        Jdbc jdbc = TestStores.migratedEmpty(ds);
        DispatchStore store = store(kind, jdbc);
        int total = 60;
        for (int i = 0; i < total; i++) {
            insert(store, List.of("alpha", "beta", "gamma").get(i % 3) + ".d-" + i, ANYONES, "w" + (i % 3), i);
        }
        Map<String, String> claimedBy = new ConcurrentHashMap<>();
        AtomicInteger twice = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(6);
        List<Future<?>> claimers = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            DispatchQueue queue = new DispatchQueue(jdbc, "w" + (t % 3));
            String worker = "w" + (t % 3);
            claimers.add(threads.submit(() -> {
                while (true) {
                    List<String> tenants = queue.tenantsWaiting(false);
                    if (tenants.isEmpty()) {
                        return null;
                    }
                    for (String tenant : tenants) {
                        Optional<DispatchQueue.Claimed> claimed = queue.claim(tenant, false);
                        if (claimed.isPresent() && claimedBy.put(claimed.get().id(), worker) != null) {
                            twice.incrementAndGet();
                        }
                    }
                }
            }));
        }
        for (Future<?> claimer : claimers) {
            claimer.get(2, TimeUnit.MINUTES);
        }
        threads.shutdown();

        assertThat(twice).hasValue(0);
        assertThat(claimedBy).hasSize(total);
        assertThat(jdbc.query(
                        "SELECT id, claimed_by, worker_id FROM dispatches",
                        row -> row.string("claimed_by").equals(claimedBy.get(row.string("id")))
                                && row.string("worker_id").equals(row.string("claimed_by"))))
                .hasSize(total)
                .containsOnly(true);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aDispatchWithSecretsIsClaimedOnlyByTheWorkerThatAcceptedIt(String kind, DataSource ds) {
        Jdbc jdbc = TestStores.migratedEmpty(ds);
        DispatchStore store = store(kind, jdbc);
        insert(store, "pinned", WITH_SECRET, "w1", 0);
        insert(store, "anyones", ANYONES, "w1", 1);
        DispatchQueue w1 = new DispatchQueue(jdbc, "w1");
        DispatchQueue w2 = new DispatchQueue(jdbc, "w2");

        assertThat(w2.tenantsWaiting(false)).containsExactly("default");
        assertThat(w2.tenantsWaiting(true)).isEmpty();
        assertThat(w2.claim("default", false)).map(DispatchQueue.Claimed::id).contains("anyones");
        assertThat(w2.claim("default", false)).isEmpty();
        assertThat(w1.claim("default", true)).map(DispatchQueue.Claimed::id).contains("pinned");
        assertThat(w1.claim("default", false)).isEmpty();

        assertThat(w1.release("pinned")).isTrue();
        assertThat(w2.claim("default", false)).as("given back, still pinned").isEmpty();
        assertThat(w1.claim("default", false)).map(DispatchQueue.Claimed::id).contains("pinned");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aLostWorkersClaimsGoBackToTheQueueButNotWhatIsPinnedToIt(String kind, DataSource ds) {
        Jdbc jdbc = TestStores.migratedEmpty(ds);
        DispatchStore store = store(kind, jdbc);
        insert(store, "claimed", ANYONES, "lost", 0);
        insert(store, "pinned", WITH_SECRET, "lost", 1);
        insert(store, "alive", ANYONES, "live", 2);
        new WorkerLease(jdbc, "lost", null, Duration.ofSeconds(10), Clock.fixed(T0, ZoneOffset.UTC)).renew();
        new WorkerLease(jdbc, "live", null, Duration.ofHours(1), Clock.fixed(T0, ZoneOffset.UTC)).renew();
        DispatchQueue lost = new DispatchQueue(jdbc, "lost");
        DispatchQueue live = new DispatchQueue(jdbc, "live");
        assertThat(lost.claim("default", false)).map(DispatchQueue.Claimed::id).contains("claimed");
        assertThat(lost.claim("default", false)).map(DispatchQueue.Claimed::id).contains("pinned");
        assertThat(live.claim("default", false)).map(DispatchQueue.Claimed::id).contains("alive");

        assertThat(live.releaseLost(T0.plusSeconds(5))).as("its lease holds").isZero();
        assertThat(live.releaseLost(T0.plusSeconds(60))).isEqualTo(1);
        assertThat(live.claim("default", false)).map(DispatchQueue.Claimed::id).contains("claimed");
        assertThat(live.claim("default", false)).isEmpty();
    }

    /**
     * A worker whose lease lapsed between its claim and its start still holds
     * the dispatch in memory; once another has claimed it, only the new holder
     * may start it, or both would run it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void onlyTheHolderOfTheClaimStartsADispatch(String kind, DataSource ds) {
        Jdbc jdbc = TestStores.migratedEmpty(ds);
        DispatchStore store = store(kind, jdbc);
        DispatchTransitions transitions =
                new DispatchTransitions(jdbc, TestStores.json(), TestStores.bodiesFor(kind, jdbc));
        insert(store, "contested", ANYONES, "slow", 0);
        new WorkerLease(jdbc, "slow", null, Duration.ofSeconds(3), Clock.fixed(T0, ZoneOffset.UTC)).renew();
        new WorkerLease(jdbc, "live", null, Duration.ofHours(1), Clock.fixed(T0, ZoneOffset.UTC)).renew();
        DispatchQueue slow = new DispatchQueue(jdbc, "slow");
        DispatchQueue live = new DispatchQueue(jdbc, "live");
        assertThat(slow.claim("default", false)).map(DispatchQueue.Claimed::id).contains("contested");

        assertThat(live.releaseLost(T0.plusSeconds(10))).isEqualTo(1);
        assertThat(live.claim("default", false)).map(DispatchQueue.Claimed::id).contains("contested");

        assertThat(transitions.markStarting("contested", "slow"))
                .as("its claim was taken")
                .isFalse();
        assertThat(transitions.markStarting("contested", "live")).isTrue();
        assertThat(store.find("contested").orElseThrow().status()).isEqualTo(Dispatch.Status.STARTING);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void admissionSeesEveryUnfinishedDispatchAndTheLiveWorkers(String kind, DataSource ds) {
        Jdbc jdbc = TestStores.migratedEmpty(ds);
        DispatchStore store = store(kind, jdbc);
        insert(store, "alpha.a", ANYONES, "w1", 0);
        insert(store, "alpha.b", ANYONES, "w2", 1);
        insert(store, "beta.c", ANYONES, "w2", 2);
        insert(store, "beta.done", ANYONES, "w2", 3);
        jdbc.update("UPDATE dispatches SET status = 'succeeded' WHERE id = 'beta.done'");
        jdbc.update("UPDATE dispatches SET status = 'running' WHERE id = 'alpha.b'");
        new WorkerLease(jdbc, "w1", null, Duration.ofMinutes(1), Clock.fixed(T0, ZoneOffset.UTC)).renew();
        new WorkerLease(jdbc, "w2", null, Duration.ofMinutes(10), Clock.fixed(T0, ZoneOffset.UTC)).renew();

        DispatchQueue queue = new DispatchQueue(jdbc, "w1");
        assertThat(queue.load("alpha", T0)).isEqualTo(new DispatchQueue.Load(3, 2, 2));
        assertThat(queue.load("beta", T0.plusSeconds(120))).isEqualTo(new DispatchQueue.Load(3, 1, 1));
        assertThat(queue.waitingSince(T0.plusSeconds(2), 10))
                .extracting(DispatchQueue.Claimed::id)
                .containsExactly("alpha.a");
    }
}
