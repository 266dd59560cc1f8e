package dev.sluice.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.sluice.record.DispatchKey;
import dev.sluice.record.DispatchQueue;
import dev.sluice.record.DispatchSpec;
import dev.sluice.record.DispatchStore;
import dev.sluice.store.Jdbc;
import dev.sluice.testsupport.ManualExecutor;
import dev.sluice.testsupport.MutableClock;
import dev.sluice.testsupport.StoreFixtures;
import dev.sluice.testsupport.TestStores;
import dev.sluice.worker.WorkerLease;

/**
 * A scheduler over a real store's queue (H2 in memory), driven without threads
 * or time: a started dispatch holds its slot until the test runs its task, and
 * the order of starts is what the scheduler handed to the executor. The
 * runner given to the scheduler ends in the store what it ran, as the real
 * one does, unless its outcome sends it back to wait.
 */
final class SchedulerFixture {

    static final String WORKER = "worker-a";
    static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
    /** Without secrets: any worker may claim it. */
    static final DispatchSpec SPEC = StoreFixtures.specWithoutSecrets("img:1", null);
    /** With a secret: only the worker that accepted it may claim it. */
    static final DispatchSpec SECRET_SPEC = StoreFixtures.spec("img:1", null);

    final MutableClock clock = new MutableClock(T0);
    final ManualExecutor slots = new ManualExecutor();
    final AtomicBoolean engineUp = new AtomicBoolean(true);
    final AtomicBoolean draining = new AtomicBoolean();
    final Jdbc jdbc = TestStores.migrated(TestStores.h2());
    final DispatchStore store = new DispatchStore(jdbc, TestStores.json(), TestStores.resultFiles(jdbc));
    final DispatchQueue queue = new DispatchQueue(jdbc, WORKER);
    final Map<String, DispatchScheduler.Outcome> outcomes = new HashMap<>();
    /** The dispatches given a slot, in order. */
    final List<String> started = new ArrayList<>();
    /** How long each waited, as it left the queue for a slot. */
    final List<Duration> waits = new ArrayList<>();

    SchedulerFixture() {
        new WorkerLease(jdbc, WORKER, null, Duration.ofDays(1), clock).renew();
    }

    DispatchScheduler scheduler(DispatchScheduler.Capacity capacity, DispatchScheduler.Runner runner) {
        return new DispatchScheduler(
                capacity,
                queue,
                slots,
                (queued, execution) -> {
                    DispatchScheduler.Outcome outcome = runner.run(queued, execution);
                    if (outcome == DispatchScheduler.Outcome.DONE) {
                        jdbc.update("UPDATE dispatches SET status = 'succeeded' WHERE id = ?", queued.id());
                    }
                    return outcome;
                },
                engineUp::get,
                draining::get,
                id -> {
                    started.add(id);
                    return new Execution(id, container -> {}, null);
                },
                wait -> waits.add(wait.waited()),
                clock);
    }

    /** Its runner returns the outcome the test set for each dispatch, {@code DONE} by default. */
    DispatchScheduler scheduler(DispatchScheduler.Capacity capacity) {
        return scheduler(
                capacity, (queued, execution) -> outcomes.getOrDefault(queued.id(), DispatchScheduler.Outcome.DONE));
    }

    /** Accepts a dispatch as intake does: a place, its row, then the scheduler is told. */
    void submit(DispatchScheduler scheduler, String tenant, String id) {
        submit(scheduler, tenant, id, SPEC);
    }

    void submit(DispatchScheduler scheduler, String tenant, String id, DispatchSpec spec) {
        String key = DispatchKey.of(tenant, id);
        assertThat(scheduler.reserve(tenant, 1)).as(key).isEqualTo(DispatchScheduler.Admission.HELD);
        insert(key, spec, WORKER);
        scheduler.submit(key, spec.secrets());
    }

    /** A row in the store's queue as a worker named {@code acceptedBy} recorded it. */
    void insert(String key, DispatchSpec spec, String acceptedBy) {
        assertThat(store.insert(new DispatchStore.NewDispatch(key, spec, "fp-" + key, acceptedBy, clock.instant())))
                .isTrue();
    }

    /** Frees the oldest held slot: its dispatch ends, and the scheduler starts the next. */
    void free() {
        assertThat(slots.runNext()).as("a slot was held").isTrue();
    }

    /** How many dispatches wait in the store's queue, claimed by no worker. */
    long waitingInTheStore() {
        return jdbc.one(
                        "SELECT COUNT(*) FROM dispatches WHERE status = 'queued' AND claimed_by IS NULL",
                        row -> row.number(1))
                .orElseThrow();
    }
}
