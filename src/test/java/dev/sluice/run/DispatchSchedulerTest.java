package dev.sluice.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import dev.sluice.record.DispatchKey;
import dev.sluice.testsupport.ManualExecutor;
import dev.sluice.worker.WorkerLease;

/**
 * Capacity, order, the engine's availability, the store's queue and queue
 * expiry, with a clock and threads the test drives.
 */
class DispatchSchedulerTest {

    private final SchedulerFixture f = new SchedulerFixture();
    private final ManualExecutor workers = f.slots;
    private final List<String> ran = new ArrayList<>();

    private DispatchScheduler scheduler(int maxRunning, int maxQueued, Duration maxQueueWait) {
        return scheduler(maxRunning, maxQueued, maxQueueWait, (queued, execution) -> {
            ran.add(queued.id());
            return f.outcomes.getOrDefault(queued.id(), DispatchScheduler.Outcome.DONE);
        });
    }

    private DispatchScheduler scheduler(
            int maxRunning, int maxQueued, Duration maxQueueWait, DispatchScheduler.Runner runner) {
        return f.scheduler(
                new DispatchScheduler.Capacity(
                        maxRunning, maxQueued, maxQueueWait, TenantLimits.none(maxRunning, maxQueued)),
                runner);
    }

    private void submit(DispatchScheduler scheduler, String id) {
        f.submit(scheduler, DispatchKey.DEFAULT_TENANT, id);
    }

    private static boolean reserve(DispatchScheduler scheduler, int n) {
        return scheduler.reserve(DispatchKey.DEFAULT_TENANT, n) == DispatchScheduler.Admission.HELD;
    }

    @Test
    void placesAreRunningPlusQueuedAndAReleasedOneCanBeTakenAgain() {
        DispatchScheduler scheduler = scheduler(1, 2, Duration.ofHours(1));
        assertThat(reserve(scheduler, 1)).isTrue();
        assertThat(reserve(scheduler, 1)).isTrue();
        assertThat(reserve(scheduler, 1)).isTrue();
        assertThat(reserve(scheduler, 1)).isFalse();
        scheduler.release(DispatchKey.DEFAULT_TENANT, 1);
        assertThat(reserve(scheduler, 1)).isTrue();
    }

    /** A group's members get their places together or not at all (ADR 0028). */
    @Test
    void severalPlacesAreHeldAllOrNone() {
        DispatchScheduler scheduler = scheduler(1, 2, Duration.ofHours(1));
        assertThat(reserve(scheduler, 1)).isTrue();
        assertThat(reserve(scheduler, 3)).isFalse();
        assertThat(reserve(scheduler, 2)).isTrue();
        assertThat(reserve(scheduler, 1)).isFalse();
        scheduler.release(DispatchKey.DEFAULT_TENANT, 2);
        assertThat(reserve(scheduler, 2)).isTrue();
    }

    /** The places are those of every live worker on the store: another's lease adds its own (ADR 0063). */
    @Test
    void admissionCountsTheStoresUnfinishedDispatchesAgainstEveryLiveWorkersPlaces() {
        DispatchScheduler scheduler = scheduler(1, 1, Duration.ofHours(1));
        submit(scheduler, "a");
        submit(scheduler, "b");
        assertThat(reserve(scheduler, 1)).isFalse();

        new WorkerLease(f.jdbc, "worker-b", null, Duration.ofMinutes(1), f.clock).renew();
        assertThat(reserve(scheduler, 2)).isTrue();
        assertThat(reserve(scheduler, 1)).isFalse();

        f.clock.advance(Duration.ofMinutes(2)); // worker-b's lease lapsed: its places went with it
        scheduler.release(DispatchKey.DEFAULT_TENANT, 2);
        assertThat(reserve(scheduler, 1)).isFalse();
    }

    @Test
    void atMostMaxRunningStartAndTheRestStartInOrderAsSlotsFree() {
        DispatchScheduler scheduler = scheduler(2, 10, Duration.ofHours(1));
        for (String id : List.of("a", "b", "c", "d")) {
            submit(scheduler, id);
        }
        assertThat(scheduler.running()).isEqualTo(2);
        assertThat(f.waitingInTheStore()).isEqualTo(2);
        assertThat(workers.pending()).isEqualTo(2);
        assertThat(scheduler.inFlight()).containsExactlyInAnyOrder("a", "b");
        assertThat(scheduler.execution("a")).isPresent();
        assertThat(scheduler.execution("c")).isEmpty();

        workers.runNext(); // a ends: c takes its slot
        assertThat(ran).containsExactly("a");
        assertThat(scheduler.inFlight()).containsExactlyInAnyOrder("b", "c");
        workers.runAll();
        assertThat(ran).containsExactly("a", "b", "c", "d");
        assertThat(scheduler.running()).isZero();
        assertThat(f.waitingInTheStore()).isZero();
    }

    @Test
    void nothingStartsWhileTheEngineIsDownAndTheQueueMovesOnceItIsBack() {
        DispatchScheduler scheduler = scheduler(4, 10, Duration.ofHours(1));
        f.engineUp.set(false);
        submit(scheduler, "a");
        scheduler.drain();
        assertThat(scheduler.running()).isZero();
        assertThat(f.waitingInTheStore()).isEqualTo(1);

        f.engineUp.set(true);
        scheduler.drain();
        assertThat(scheduler.running()).isEqualTo(1);
        workers.runAll();
        assertThat(ran).containsExactly("a");
    }

    /**
     * Reconciliation's look at what this worker does not drive is taken while
     * no claim is under way: a claim made meanwhile would be in the store and
     * not yet tracked, and be taken up as abandoned (ADR 0068).
     */
    @Test
    void noClaimIsMadeWhileReconciliationLooksAtWhatIsUndriven() throws Exception {
        DispatchScheduler scheduler = scheduler(1, 10, Duration.ofHours(1));
        f.engineUp.set(false);
        submit(scheduler, "a");
        f.engineUp.set(true);

        List<String> undriven = scheduler.untracked(
                () -> {
                    CompletableFuture.runAsync(scheduler::drain).join(); // a tick on another thread
                    assertThat(f.waitingInTheStore())
                            .as("claimed while looking")
                            .isEqualTo(1);
                    return List.of(DispatchKey.of(DispatchKey.DEFAULT_TENANT, "a"));
                },
                id -> id,
                Duration.ofSeconds(5));

        assertThat(undriven).as("unclaimed when looked at").hasSize(1);
        assertThat(f.waitingInTheStore())
                .as("the round asked for meanwhile ran after")
                .isZero();
        assertThat(scheduler.running()).isEqualTo(1);
    }

    @Test
    void aDispatchTheEngineCouldNotTakeGoesBackToTheStoresQueueFirstInLine() {
        DispatchScheduler scheduler = scheduler(1, 10, Duration.ofHours(1));
        f.outcomes.put("a", DispatchScheduler.Outcome.REQUEUE);
        submit(scheduler, "a");
        submit(scheduler, "b");
        f.engineUp.set(false); // the engine went away while a was being created
        workers.runNext();
        assertThat(ran).containsExactly("a");
        assertThat(f.waitingInTheStore()).as("claimable by any worker again").isEqualTo(2);

        f.outcomes.remove("a");
        f.engineUp.set(true);
        scheduler.drain();
        workers.runAll();
        assertThat(ran).containsExactly("a", "a", "b");
    }

    @Test
    void dispatchesQueuedLongerThanTheLimitAreTakenOutAndYoungerOnesStay() {
        DispatchScheduler scheduler = scheduler(1, 10, Duration.ofMinutes(10));
        submit(scheduler, "running");
        submit(scheduler, "old");
        f.clock.advance(Duration.ofMinutes(6));
        submit(scheduler, "young");

        f.clock.advance(Duration.ofMinutes(5)); // old has waited 11 minutes, young 5
        assertThat(scheduler.expire(10))
                .extracting(DispatchScheduler.Queued::id)
                .containsExactly("old");
        f.jdbc.update("UPDATE dispatches SET status = 'error' WHERE id = 'old'"); // as its caller ends it
        assertThat(scheduler.expire(10)).isEmpty();
    }

    @Test
    void aDispatchTakenOverCountsAsRunningEvenPastTheLimit() {
        DispatchScheduler scheduler = scheduler(1, 10, Duration.ofHours(1));
        submit(scheduler, "a");
        List<String> adopted = new ArrayList<>();
        scheduler.adopt("taken-over", execution -> adopted.add(execution.dispatchId()));
        assertThat(scheduler.running()).isEqualTo(2);
        assertThat(scheduler.tracks("taken-over")).isTrue();
        workers.runAll();
        assertThat(adopted).containsExactly("taken-over");
        assertThat(scheduler.running()).isZero();
    }

    /** A cancel ends a waiting dispatch in the store; no worker claims it after. */
    @Test
    void aDispatchCancelledWhileItWaitsInTheStoreIsNeverStarted() {
        DispatchScheduler scheduler = scheduler(1, 10, Duration.ofHours(1));
        submit(scheduler, "a");
        submit(scheduler, "b");
        assertThat(scheduler.dequeue("b")).as("it waits in the store, not here").isFalse();
        f.jdbc.update("UPDATE dispatches SET status = 'cancelled' WHERE id = 'b'");
        workers.runAll();
        assertThat(ran).containsExactly("a");
    }

    /** A store that fails while a dispatch is handed over never reaches the request: the next tick claims it. */
    @Test
    void aStoreThatFailsWhileClaimingLeavesTheDispatchForTheNextTick() {
        DispatchScheduler scheduler = scheduler(1, 10, Duration.ofHours(1));
        assertThat(reserve(scheduler, 1)).isTrue();
        f.insert("a", SchedulerFixture.SPEC, SchedulerFixture.WORKER);
        f.jdbc.update("ALTER TABLE dispatches RENAME TO dispatches_away");
        assertThatCode(() -> scheduler.submit("a", Map.of())).doesNotThrowAnyException();
        assertThat(ran).isEmpty();

        f.jdbc.update("ALTER TABLE dispatches_away RENAME TO dispatches");
        scheduler.drain();
        workers.runAll();
        assertThat(ran).containsExactly("a");
    }

    /** At a restart, what this worker had claimed is given back and claimed again (ADR 0063). */
    @Test
    void aClaimGivenBackIsClaimedAgain() {
        DispatchScheduler scheduler = scheduler(1, 10, Duration.ofHours(1));
        f.insert("c", SchedulerFixture.SPEC, SchedulerFixture.WORKER);
        f.jdbc.update("UPDATE dispatches SET claimed_by = ? WHERE id = 'c'", SchedulerFixture.WORKER);
        scheduler.drain();
        assertThat(ran).isEmpty();

        scheduler.requeue("c");
        workers.runAll();
        assertThat(ran).containsExactly("c");
    }

    /** One with secrets is pinned to the worker that has them; one without is any worker's. */
    @Test
    void aDispatchPinnedToAnotherWorkerIsNeverClaimedHere() {
        DispatchScheduler scheduler = scheduler(4, 10, Duration.ofHours(1));
        f.insert("theirs", SchedulerFixture.SECRET_SPEC, "worker-b");
        f.insert("anyones", SchedulerFixture.SPEC, "worker-b");
        scheduler.drain();
        workers.runAll();
        assertThat(ran).containsExactly("anyones");
        assertThat(f.waitingInTheStore()).isEqualTo(1);
    }

    /** A draining worker claims only what no other could run; the rest waits for the others. */
    @Test
    void aDrainingWorkerClaimsOnlyWhatIsPinnedToIt() {
        DispatchScheduler scheduler = scheduler(4, 10, Duration.ofHours(1));
        f.draining.set(true);
        f.insert("anyones", SchedulerFixture.SPEC, SchedulerFixture.WORKER);
        f.insert("mine", SchedulerFixture.SECRET_SPEC, SchedulerFixture.WORKER);
        scheduler.drain();
        workers.runAll();
        assertThat(ran).containsExactly("mine");
    }

    /**
     * A draining worker gives back what it claimed and has not started (here, a
     * dispatch waiting for its image): it waits in the store for the others, and
     * the pull ending later starts nothing here. One with secrets held here stays.
     */
    @Test
    void aDrainingWorkerHandsBackWhatItClaimedAndHasNotStarted() {
        CompletableFuture<Void> pull = new CompletableFuture<>();
        DispatchScheduler scheduler = scheduler(4, 10, Duration.ofHours(1), (queued, execution) -> {
            ran.add(queued.id());
            return queued.imagePulled() ? DispatchScheduler.Outcome.DONE : DispatchScheduler.Outcome.awaitImage(pull);
        });
        submit(scheduler, "waiting");
        f.submit(scheduler, DispatchKey.DEFAULT_TENANT, "secret", SchedulerFixture.SECRET_SPEC);
        workers.runAll();
        assertThat(scheduler.queued()).isEqualTo(2);

        f.draining.set(true);
        assertThat(scheduler.handBack()).isEqualTo(1);

        assertThat(scheduler.tracks("waiting")).isFalse();
        assertThat(scheduler.tracks("secret")).isTrue();
        assertThat(f.waitingInTheStore()).isEqualTo(1);
        pull.complete(null);
        workers.runAll();
        assertThat(ran).containsExactly("waiting", "secret", "secret");
    }

    @Test
    void eachDispatchLeavingTheQueueForASlotTellsHowLongItWaitedSinceItWasAccepted() {
        DispatchScheduler scheduler = scheduler(1, 10, Duration.ofHours(1));
        submit(scheduler, "a");
        f.clock.advance(Duration.ofSeconds(5));
        submit(scheduler, "b");
        assertThat(f.waits).containsExactly(Duration.ZERO);

        f.clock.advance(Duration.ofSeconds(30));
        workers.runNext(); // a ends: b, queued 30 s ago, takes its slot
        assertThat(f.waits).containsExactly(Duration.ZERO, Duration.ofSeconds(30));
    }

    /**
     * A dispatch whose image is being pulled gives its slot back and waits here,
     * claimed: the one behind it runs meanwhile, and once the pull ends it is
     * offered the next slot, told that the pull is done or why it failed (ADR 0059).
     */
    @Test
    void aDispatchWaitingForItsPullHoldsNoSlotAndRunsOnceThePullEnds() {
        CompletableFuture<Void> pullA = new CompletableFuture<>();
        CompletableFuture<Void> pullC = new CompletableFuture<>();
        List<DispatchScheduler.Queued> given = new ArrayList<>();
        DispatchScheduler scheduler = scheduler(1, 3, Duration.ofHours(1), (queued, execution) -> {
            given.add(queued);
            if (!queued.imagePulled() && queued.id().equals("a")) {
                return DispatchScheduler.Outcome.awaitImage(pullA);
            }
            if (!queued.imagePulled() && queued.id().equals("c")) {
                return DispatchScheduler.Outcome.awaitImage(pullC);
            }
            return DispatchScheduler.Outcome.DONE;
        });
        submit(scheduler, "a");
        submit(scheduler, "b");
        submit(scheduler, "c");
        workers.runNext(); // a: its image is pulled, it waits; b takes the slot
        assertThat(scheduler.running()).isEqualTo(1);
        assertThat(scheduler.queued()).isEqualTo(1);
        workers.runNext(); // b runs and ends; c's image is pulled too
        workers.runNext();
        assertThat(given).extracting(DispatchScheduler.Queued::id).containsExactly("a", "b", "c");
        assertThat(scheduler.running()).isZero();
        assertThat(scheduler.queued()).as("both wait, holding no slot").isEqualTo(2);

        pullC.completeExceptionally(new IllegalStateException("pull failed"));
        workers.runAll();
        assertThat(given.get(3).id()).isEqualTo("c");
        assertThat(given.get(3).pullFailure()).hasMessage("pull failed");

        pullA.complete(null);
        workers.runAll();
        assertThat(given.get(4).id()).isEqualTo("a");
        assertThat(given.get(4).imagePulled()).isTrue();
        assertThat(given.get(4).pullFailure()).isNull();
        assertThat(scheduler.queued()).isZero();
    }

    /** The queue wait bound holds while a dispatch waits for its pull: it is taken out at the bound. */
    @Test
    void aDispatchWaitingForItsPullStillExpires() {
        DispatchScheduler scheduler = scheduler(
                1,
                1,
                Duration.ofMinutes(1),
                (queued, execution) -> DispatchScheduler.Outcome.awaitImage(new CompletableFuture<>()));
        submit(scheduler, "a");
        workers.runAll();
        f.clock.advance(Duration.ofMinutes(2));
        assertThat(scheduler.expire(10))
                .extracting(DispatchScheduler.Queued::id)
                .containsExactly("a");
        assertThat(scheduler.tracks("a")).isFalse();
    }

    /**
     * A queued dispatch is held as its id, tenant, time and secrets, and how the
     * pull it waited for ended: its request (input up to 1 MiB, env) stays in the
     * store until it leaves the queue (ADR 0057, 0059); the secrets of one
     * accepted here wait here until it is claimed.
     */
    @Test
    void theQueueHoldsOnlyWhatTheStoreDoesNotAndTheRunnerGetsTheSecrets() {
        assertThat(DispatchScheduler.Queued.class.getRecordComponents())
                .extracting(RecordComponent::getName)
                .containsExactly("id", "tenant", "queuedAt", "secrets", "imagePulled", "pullFailure");
        List<DispatchScheduler.Queued> given = new ArrayList<>();
        DispatchScheduler scheduler = scheduler(1, 1, Duration.ofHours(1), (queued, execution) -> {
            given.add(queued);
            return DispatchScheduler.Outcome.DONE;
        });
        f.submit(scheduler, "beta", "a", SchedulerFixture.SECRET_SPEC);
        workers.runAll();
        assertThat(given).singleElement().satisfies(q -> {
            assertThat(q.tenant()).isEqualTo("beta");
            assertThat(q.secrets()).containsExactlyEntriesOf(SchedulerFixture.SECRET_SPEC.secrets());
            assertThat(q.toString()).doesNotContain("the-secret-value");
        });
    }
}
