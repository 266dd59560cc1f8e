package dev.sluice.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import javax.sql.DataSource;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.sluice.output.CapturedOutput;
import dev.sluice.store.Jdbc;
import dev.sluice.testsupport.MutableClock;
import dev.sluice.testsupport.StoreFixtures;
import dev.sluice.testsupport.TestStores;
import dev.sluice.worker.WorkerLease;

/**
 * Another attempt for a lost worker's dispatch (ADR 0066), on both databases:
 * one whose request allows it goes back to the queue with the next attempt
 * number and how the last one ended; one without, or past its last attempt,
 * ends worker_lost; and the lost attempt can no longer store a result.
 */
class DispatchAttemptsIT {

    private static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");
    private static final DispatchResult.Error LOST = new DispatchResult.Error("worker_lost", "its worker was lost");

    static Stream<Arguments> stores() {
        return Stream.of(
                Arguments.of("h2", TestStores.h2()),
                Arguments.of("postgresql", TestStores.postgres("sluice_attempts_test")));
    }

    private record Store(Jdbc jdbc, DispatchStore dispatches, DispatchTransitions transitions) {

        static Store of(String kind, DataSource ds) {
            Jdbc jdbc = TestStores.migratedEmpty(ds);
            var bodies = TestStores.bodiesFor(kind, jdbc);
            return new Store(
                    jdbc,
                    new DispatchStore(jdbc, TestStores.json(), bodies),
                    new DispatchTransitions(jdbc, TestStores.json(), bodies));
        }

        /** {@code worker} claims and starts the oldest queued dispatch, in container {@code containerId}. */
        String runs(String worker, String containerId, Instant at) {
            String id = new DispatchQueue(jdbc, worker)
                    .claim("default", false)
                    .orElseThrow()
                    .id();
            assertThat(transitions.markStarting(id, worker)).isTrue();
            transitions.recordContainer(id, containerId);
            assertThat(transitions.markRunning(id, at)).isTrue();
            return id;
        }

        DispatchTransitions.Swept sweep(String me, Instant now) {
            return transitions.closeLost(
                    me,
                    now,
                    10,
                    StoredDispatches.NO_OUTBOX,
                    LOST,
                    lost -> Ending.of(lost.id(), lost.spec())
                            .ended(Dispatch.Status.ERROR, null, LOST)
                            .ran(lost.startedAt(), now)
                            .output(Ending.Output.UNCOUNTED)
                            .build()
                            .withAttempts(lost.attempts())
                            .closing(new ResultBudget(1 << 20, TestStores.json())));
        }

        DispatchResult result(String id) {
            return TestStores.json()
                    .read(dispatches.find(id).orElseThrow().result().json(), DispatchResult.class);
        }
    }

    private static void lease(Jdbc jdbc, String worker, Instant at) {
        new WorkerLease(jdbc, worker, null, Duration.ofSeconds(5), new MutableClock(at)).renew();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aLostWorkersDispatchIsAttemptedAgainAsOftenAsItsRequestAllows(String kind, DataSource ds) {
        Store store = Store.of(kind, ds);
        store.dispatches.insert(
                new DispatchStore.NewDispatch("twice", StoreFixtures.specWithAttempts("img:1", 2), "fp", "w1", T0));
        store.dispatches.insert(new DispatchStore.NewDispatch(
                "once", StoreFixtures.specWithoutSecrets("img:1", null), "fp", "w1", T0.plusSeconds(1)));
        lease(store.jdbc, "w1", T0);
        String twice = store.runs("w1", "container-1", T0.plusSeconds(2));
        String once = store.runs("w1", "container-2", T0.plusSeconds(2));

        // w1's lease lapses; w2 sweeps.
        Instant lost = T0.plusSeconds(30);
        lease(store.jdbc, "w2", lost);
        DispatchTransitions.Swept swept = store.sweep("w2", lost);

        assertThat(swept.closed()).extracting(DispatchResult::dispatchId).containsExactly(once);
        assertThat(swept.closed().get(0).attempt()).isEqualTo(1);
        assertThat(swept.closed().get(0).earlierAttempts()).isEmpty();
        assertThat(swept.retried()).containsExactly(new DispatchTransitions.Retried(twice, 2, "w1", "container-1"));
        Dispatch again = store.dispatches.find(twice).orElseThrow();
        assertThat(again.status()).isEqualTo(Dispatch.Status.QUEUED);
        assertThat(again.attempt()).isEqualTo(2);
        assertThat(again.containerId()).isNull();
        assertThat(again.startedAt()).isNull();
        DispatchResult.EarlierAttempt first = new DispatchResult.EarlierAttempt(1, "w1", T0.plusSeconds(2), lost, LOST);
        assertThat(store.transitions.attempts(twice)).isEqualTo(new Attempts(2, List.of(first)));

        // The lost attempt, had its worker only stalled, can no longer store a result.
        DispatchTransitions.Closing stale = Ending.of(twice, StoreFixtures.specWithAttempts("img:1", 2))
                .ended(Dispatch.Status.SUCCEEDED, 0, null)
                .ran(T0.plusSeconds(2), lost.plusSeconds(1))
                .output(Ending.Output.captured(CapturedOutput.EMPTY, CapturedOutput.EMPTY, "n0nce"))
                .build()
                .closing(new ResultBudget(1 << 20, TestStores.json()));
        assertThat(store.transitions.finish(stale, DispatchTransitions.From.ANY_UNFINISHED, StoredDispatches.NO_OUTBOX))
                .isFalse();

        // w2 runs the second attempt and is lost in turn: that was the last one the request allowed.
        assertThat(store.runs("w2", "container-3", lost.plusSeconds(1))).isEqualTo(twice);
        Instant lostAgain = lost.plusSeconds(30);
        lease(store.jdbc, "w3", lostAgain);
        swept = store.sweep("w3", lostAgain);

        assertThat(swept.retried()).isEmpty();
        assertThat(swept.closed()).extracting(DispatchResult::dispatchId).containsExactly(twice);
        DispatchResult result = store.result(twice);
        assertThat(result.status()).isEqualTo(Dispatch.Status.ERROR);
        assertThat(result.error().code()).isEqualTo("worker_lost");
        assertThat(result.attempt()).isEqualTo(2);
        assertThat(result.earlierAttempts()).containsExactly(first);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aCancelledDispatchIsNotAttemptedAgain(String kind, DataSource ds) {
        Store store = Store.of(kind, ds);
        store.dispatches.insert(
                new DispatchStore.NewDispatch("cancelled", StoreFixtures.specWithAttempts("img:1", 3), "fp", "w1", T0));
        lease(store.jdbc, "w1", T0);
        String id = store.runs("w1", "container-1", T0.plusSeconds(1));
        assertThat(store.transitions.requestCancel(id)).isTrue();

        lease(store.jdbc, "w2", T0.plusSeconds(30));
        DispatchTransitions.Swept swept = store.sweep("w2", T0.plusSeconds(30));

        assertThat(swept.retried()).isEmpty();
        assertThat(swept.closed()).extracting(DispatchResult::dispatchId).containsExactly(id);
        assertThat(store.result(id).attempt()).isEqualTo(1);
    }
}
