package dev.sluice.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import dev.sluice.record.DispatchKey;
import dev.sluice.record.DispatchSpec;
import dev.sluice.testsupport.ManualExecutor;
import dev.sluice.testsupport.MutableClock;
import dev.sluice.testsupport.StoreFixtures;

/** Capacity, order, the engine's availability and queue expiry, with a clock and threads the test drives. */
class DispatchSchedulerTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
    private static final DispatchSpec SPEC = StoreFixtures.spec("img:1", null);

    private final MutableClock clock = new MutableClock(T0);
    private final ManualExecutor workers = new ManualExecutor();
    private final AtomicBoolean engineUp = new AtomicBoolean(true);
    private final List<String> ran = new ArrayList<>();
    private final Map<String, DispatchScheduler.Outcome> outcomes = new HashMap<>();
    private final List<Duration> waits = new ArrayList<>();

    private DispatchScheduler scheduler(int maxRunning, int maxQueued, Duration maxQueueWait) {
        DispatchScheduler.Runner runner = (queued, execution) -> {
            ran.add(queued.id());
            return outcomes.getOrDefault(queued.id(), DispatchScheduler.Outcome.DONE);
        };
        return new DispatchScheduler(
                new DispatchScheduler.Capacity(
                        maxRunning, maxQueued, maxQueueWait, TenantLimits.none(maxRunning, maxQueued)),
                workers,
                runner,
                engineUp::get,
                id -> new Execution(id, container -> {}, null),
                wait -> waits.add(wait.waited()),
                clock);
    }

    private static void submit(DispatchScheduler scheduler, String id) {
        assertThat(reserve(scheduler, 1)).as("room for %s", id).isTrue();
        scheduler.submit(id, SPEC.secrets());
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

    @Test
    void atMostMaxRunningStartAndTheRestStartInOrderAsSlotsFree() {
        DispatchScheduler scheduler = scheduler(2, 10, Duration.ofHours(1));
        for (String id : List.of("a", "b", "c", "d")) {
            submit(scheduler, id);
        }
        assertThat(scheduler.running()).isEqualTo(2);
        assertThat(scheduler.queued()).isEqualTo(2);
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
        assertThat(scheduler.queued()).isZero();
    }

    @Test
    void nothingStartsWhileTheEngineIsDownAndTheQueueMovesOnceItIsBack() {
        DispatchScheduler scheduler = scheduler(4, 10, Duration.ofHours(1));
        engineUp.set(false);
        submit(scheduler, "a");
        scheduler.drain();
        assertThat(scheduler.running()).isZero();
        assertThat(scheduler.queued()).isEqualTo(1);
        assertThat(scheduler.tracks("a")).isTrue();

        engineUp.set(true);
        scheduler.drain();
        assertThat(scheduler.running()).isEqualTo(1);
        workers.runAll();
        assertThat(ran).containsExactly("a");
    }

    @Test
    void aDispatchTheEngineCouldNotTakeIsQueuedAgainFirstInLine() {
        DispatchScheduler scheduler = scheduler(1, 10, Duration.ofHours(1));
        outcomes.put("a", DispatchScheduler.Outcome.REQUEUE);
        submit(scheduler, "a");
        submit(scheduler, "b");
        engineUp.set(false); // the engine went away while a was being created
        workers.runNext();
        assertThat(ran).containsExactly("a");
        assertThat(scheduler.queued()).isEqualTo(2);

        outcomes.remove("a");
        engineUp.set(true);
        scheduler.drain();
        workers.runAll();
        assertThat(ran).containsExactly("a", "a", "b");
    }

    @Test
    void dispatchesQueuedLongerThanTheLimitAreTakenOutAndYoungerOnesStay() {
        DispatchScheduler scheduler = scheduler(1, 10, Duration.ofMinutes(10));
        submit(scheduler, "running");
        submit(scheduler, "old");
        clock.advance(Duration.ofMinutes(6));
        submit(scheduler, "young");

        clock.advance(Duration.ofMinutes(5)); // old has waited 11 minutes, young 5
        assertThat(scheduler.expire()).extracting(DispatchScheduler.Queued::id).containsExactly("old");
        assertThat(scheduler.tracks("old")).isFalse();
        assertThat(scheduler.tracks("young")).isTrue();
        assertThat(scheduler.expire()).isEmpty();
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

    @Test
    void aQueuedDispatchCanBeTakenOutOnceAndOnlyWhileQueued() {
        DispatchScheduler scheduler = scheduler(1, 10, Duration.ofHours(1));
        submit(scheduler, "a");
        submit(scheduler, "b");
        assertThat(scheduler.dequeue("a")).isFalse(); // running, not queued
        assertThat(scheduler.dequeue("b")).isTrue();
        assertThat(scheduler.dequeue("b")).isFalse();
        workers.runAll();
        assertThat(ran).containsExactly("a");
    }

    @Test
    void aDispatchFoundAfterARestartIsQueuedOnlyWhenThereIsRoom() {
        DispatchScheduler scheduler = scheduler(1, 1, Duration.ofHours(1));
        submit(scheduler, "a");
        submit(scheduler, "b");
        assertThat(scheduler.resubmit("c", T0)).isFalse();
        workers.runNext();
        assertThat(scheduler.resubmit("c", T0.minusSeconds(60))).isTrue();
        workers.runAll();
        assertThat(ran).containsExactly("a", "b", "c");
    }

    @Test
    void eachDispatchLeavingTheQueueForASlotTellsHowLongItWaitedSinceItWasAccepted() {
        DispatchScheduler scheduler = scheduler(1, 10, Duration.ofHours(1));
        submit(scheduler, "a");
        clock.advance(Duration.ofSeconds(5));
        submit(scheduler, "b");
        assertThat(waits).containsExactly(Duration.ZERO);

        clock.advance(Duration.ofSeconds(30));
        workers.runNext(); // a ends: b, queued 30 s ago, takes its slot
        assertThat(waits).containsExactly(Duration.ZERO, Duration.ofSeconds(30));

        clock.advance(Duration.ofSeconds(10));
        assertThat(scheduler.resubmit("c", T0)).isTrue(); // found after a restart: accepted at T0
        workers.runAll();
        assertThat(waits).containsExactly(Duration.ZERO, Duration.ofSeconds(30), Duration.ofSeconds(45));
    }

    /**
     * A dispatch whose image is being pulled gives its slot back and waits in
     * the queue: the one behind it runs meanwhile, and once the pull ends it is
     * offered the next slot, told that the pull is done or why it failed (ADR 0059).
     */
    @Test
    void aDispatchWaitingForItsPullHoldsNoSlotAndRunsOnceThePullEnds() {
        CompletableFuture<Void> pullA = new CompletableFuture<>();
        CompletableFuture<Void> pullC = new CompletableFuture<>();
        List<DispatchScheduler.Queued> given = new ArrayList<>();
        DispatchScheduler scheduler = new DispatchScheduler(
                new DispatchScheduler.Capacity(1, 3, Duration.ofHours(1), TenantLimits.none(1, 3)),
                workers,
                (queued, execution) -> {
                    given.add(queued);
                    if (!queued.imagePulled() && queued.id().equals("a")) {
                        return DispatchScheduler.Outcome.awaitImage(pullA);
                    }
                    if (!queued.imagePulled() && queued.id().equals("c")) {
                        return DispatchScheduler.Outcome.awaitImage(pullC);
                    }
                    return DispatchScheduler.Outcome.DONE;
                },
                engineUp::get,
                id -> new Execution(id, container -> {}, null),
                wait -> {},
                clock);
        submit(scheduler, "a");
        submit(scheduler, "b");
        submit(scheduler, "c");
        workers.runNext(); // a: its image is pulled, it waits; b takes the slot
        assertThat(scheduler.running()).isEqualTo(1);
        assertThat(scheduler.queued()).isEqualTo(2);
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
        DispatchScheduler scheduler = new DispatchScheduler(
                new DispatchScheduler.Capacity(1, 1, Duration.ofMinutes(1), TenantLimits.none(1, 1)),
                workers,
                (queued, execution) -> DispatchScheduler.Outcome.awaitImage(new CompletableFuture<>()),
                engineUp::get,
                id -> new Execution(id, container -> {}, null),
                wait -> {},
                clock);
        submit(scheduler, "a");
        workers.runAll();
        clock.advance(Duration.ofMinutes(2));
        assertThat(scheduler.expire()).extracting(DispatchScheduler.Queued::id).containsExactly("a");
        assertThat(scheduler.tracks("a")).isFalse();
    }

    /**
     * A queued dispatch is held as its id, tenant, time and secrets, and how the
     * pull it waited for ended: its request (input up to 1 MiB, env) stays in the
     * store until it leaves the queue (ADR 0057, 0059).
     */
    @Test
    void theQueueHoldsOnlyWhatTheStoreDoesNotAndTheRunnerGetsTheSecrets() {
        assertThat(DispatchScheduler.Queued.class.getRecordComponents())
                .extracting(RecordComponent::getName)
                .containsExactly("id", "tenant", "queuedAt", "secrets", "imagePulled", "pullFailure");
        List<DispatchScheduler.Queued> given = new ArrayList<>();
        DispatchScheduler scheduler = new DispatchScheduler(
                new DispatchScheduler.Capacity(1, 1, Duration.ofHours(1), TenantLimits.none(1, 1)),
                workers,
                (queued, execution) -> {
                    given.add(queued);
                    return DispatchScheduler.Outcome.DONE;
                },
                engineUp::get,
                id -> new Execution(id, container -> {}, null),
                wait -> {},
                clock);
        assertThat(scheduler.reserve("beta", 1)).isEqualTo(DispatchScheduler.Admission.HELD);
        scheduler.submit("beta.a", SPEC.secrets());
        workers.runAll();
        assertThat(given).singleElement().satisfies(q -> {
            assertThat(q.tenant()).isEqualTo("beta");
            assertThat(q.secrets()).containsExactlyEntriesOf(SPEC.secrets());
            assertThat(q.toString()).doesNotContain("the-secret-value");
        });
    }
}
