package dev.sluice.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.sluice.record.DispatchKey;

/**
 * Each tenant's share of the worker (ADR 0057), driven without threads or
 * time: a started dispatch holds its slot until the test runs its task, and
 * the order of starts is what the scheduler handed to the executor.
 */
class FairShareTest {

    private final SchedulerFixture f = new SchedulerFixture();
    private final List<String> started = f.started;

    private record Limits(Optional<Integer> maxRunning, Optional<Integer> maxQueued) implements TenantsConfig.Limits {

        static Limits of(int maxRunning, int maxQueued) {
            return new Limits(Optional.of(maxRunning), Optional.of(maxQueued));
        }
    }

    private record Tenants(Map<String, TenantsConfig.Limits> tenants) implements TenantsConfig {}

    private DispatchScheduler scheduler(int maxRunning, int maxQueued, Map<String, TenantsConfig.Limits> tenants) {
        return f.scheduler(new DispatchScheduler.Capacity(
                maxRunning,
                maxQueued,
                Duration.ofHours(1),
                TenantLimits.of(new Tenants(tenants), maxRunning, maxQueued)));
    }

    private void submit(DispatchScheduler scheduler, String tenant, String id) {
        f.submit(scheduler, tenant, id);
    }

    private void free() {
        f.free();
    }

    @Test
    void aTenantWith500QueuedDelaysAnothersNextStartByOneSlotAtMost() {
        DispatchScheduler scheduler = scheduler(4, 1000, Map.of());
        for (int i = 0; i < 500; i++) {
            submit(scheduler, "alpha", "a-" + i);
        }
        assertThat(started).hasSize(4);
        submit(scheduler, "beta", "b-0");
        assertThat(f.waitingInTheStore()).isEqualTo(497);

        free(); // the first slot to come free is beta's
        assertThat(started).hasSize(5).last().isEqualTo("beta.b-0");

        free();
        assertThat(started).last().isEqualTo("alpha.a-4");
    }

    /** Without the fair order, beta's start would come after alpha's whole backlog: this is the reference FIFO. */
    @Test
    void everyTenantWithWorkQueuedIsServedInTurnAndInOrderWithin() {
        DispatchScheduler scheduler = scheduler(1, 1000, Map.of());
        for (int i = 0; i < 6; i++) {
            submit(scheduler, "alpha", "a-" + i);
        }
        submit(scheduler, "beta", "b-0");
        submit(scheduler, "beta", "b-1");
        submit(scheduler, "gamma", "c-0");
        f.slots.runAll();

        assertThat(started)
                .containsExactly(
                        "alpha.a-0",
                        "beta.b-0",
                        "gamma.c-0",
                        "alpha.a-1",
                        "beta.b-1",
                        "alpha.a-2",
                        "alpha.a-3",
                        "alpha.a-4",
                        "alpha.a-5");
    }

    /** A tenant that was served long ago, then came back, goes before one served a moment ago. */
    @Test
    void theNextSlotGoesToTheTenantLeastRecentlyStarted() {
        DispatchScheduler scheduler = scheduler(1, 1000, Map.of());
        submit(scheduler, "beta", "b-0");
        free(); // beta was last started at the first start
        for (int i = 0; i < 3; i++) {
            submit(scheduler, "alpha", "a-" + i);
        }
        free(); // alpha's a-0 ran
        submit(scheduler, "beta", "b-1");
        f.slots.runAll();

        assertThat(started).containsExactly("beta.b-0", "alpha.a-0", "alpha.a-1", "beta.b-1", "alpha.a-2");
    }

    @Test
    void noTenantRunsPastItsOwnMaxRunningEvenWithSlotsFree() {
        DispatchScheduler scheduler = scheduler(4, 100, Map.of("alpha", Limits.of(1, 10)));
        submit(scheduler, "alpha", "a-0");
        submit(scheduler, "alpha", "a-1");
        submit(scheduler, "alpha", "a-2");
        submit(scheduler, "beta", "b-0");
        assertThat(started).containsExactly("alpha.a-0", "beta.b-0");
        assertThat(scheduler.running()).isEqualTo(2);
        assertThat(f.waitingInTheStore()).isEqualTo(2);

        scheduler.drain(); // the tick changes nothing: alpha's one slot is taken
        assertThat(started).hasSize(2);
        free(); // a-0 ends: a-1 takes alpha's slot
        assertThat(started).containsExactly("alpha.a-0", "beta.b-0", "alpha.a-1");
        f.slots.runAll();
        assertThat(started).containsExactly("alpha.a-0", "beta.b-0", "alpha.a-1", "alpha.a-2");
    }

    /** Counted at every start: whatever the interleaving, alpha never holds more than its two slots. */
    @Test
    void aTenantsRunningNeverPassesItsLimitWhileOthersComeAndGo() {
        DispatchScheduler scheduler = scheduler(5, 1000, Map.of("alpha", Limits.of(2, 500)));
        List<Integer> alphaRunning = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            submit(scheduler, "alpha", "a-" + i);
            submit(scheduler, i % 2 == 0 ? "beta" : "gamma", "x-" + i);
            if (i % 3 == 0) {
                free();
            }
            alphaRunning.add(alphaRunning(scheduler));
        }
        while (f.slots.runNext()) {
            alphaRunning.add(alphaRunning(scheduler));
        }
        assertThat(Collections.max(alphaRunning)).isEqualTo(2);
        assertThat(started).hasSize(80);
    }

    private static int alphaRunning(DispatchScheduler scheduler) {
        return (int) scheduler.inFlight().stream()
                .filter(id -> DispatchKey.tenantOf(id).equals("alpha"))
                .count();
    }

    @Test
    void aTenantAtItsLimitIsRefusedWhileAnotherStillGetsAPlace() {
        DispatchScheduler scheduler = scheduler(2, 4, Map.of("alpha", Limits.of(1, 2)));
        submit(scheduler, "alpha", "a-0");
        submit(scheduler, "alpha", "a-1");
        submit(scheduler, "alpha", "a-2");
        assertThat(scheduler.reserve("alpha", 1)).isEqualTo(DispatchScheduler.Admission.TENANT_FULL);
        assertThat(scheduler.reserve("beta", 3)).isEqualTo(DispatchScheduler.Admission.HELD);
        assertThat(scheduler.reserve("beta", 1)).isEqualTo(DispatchScheduler.Admission.WORKER_FULL);

        free(); // a-0 ends, a-1 runs: alpha holds two places again, of its three
        assertThat(scheduler.reserve("alpha", 2)).isEqualTo(DispatchScheduler.Admission.TENANT_FULL);
        scheduler.release("beta", 3);
        assertThat(scheduler.reserve("alpha", 1)).isEqualTo(DispatchScheduler.Admission.HELD);
    }

    /** The default entry is every tenant's without one of its own, and a tenant's unset limit is the default's. */
    @Test
    void theDefaultEntryLimitsEveryTenantWithoutItsOwn() {
        TenantLimits limits = TenantLimits.of(
                new Tenants(Map.of("default", Limits.of(2, 3), "alpha", new Limits(Optional.of(8), Optional.empty()))),
                64,
                1000);
        assertThat(limits.of("default")).isEqualTo(new TenantLimits.Limit(2, 3));
        assertThat(limits.of("beta")).isEqualTo(new TenantLimits.Limit(2, 3));
        assertThat(limits.of("alpha")).isEqualTo(new TenantLimits.Limit(8, 3));
        assertThat(TenantLimits.of(new Tenants(Map.of()), 64, 1000).of("beta"))
                .isEqualTo(new TenantLimits.Limit(64, 1000));
    }

    @Test
    void aLimitNoDispatchCouldRunUnderOrANameNoTenantHasStopsTheStart() {
        assertThatThrownBy(() -> TenantLimits.of(new Tenants(Map.of("alpha", Limits.of(0, 5))), 4, 10))
                .hasMessageContaining("sluice.tenants.alpha");
        assertThatThrownBy(() -> TenantLimits.of(new Tenants(Map.of("Alpha", Limits.of(1, 5))), 4, 10))
                .hasMessageContaining("does not name a tenant");
    }

    /**
     * A dispatch the engine could not take goes back to the store's queue, still
     * the oldest, and its tenant keeps its turn.
     */
    @Test
    void aRequeuedDispatchIsFirstInLineAndItsTenantKeepsItsTurn() {
        DispatchScheduler scheduler = scheduler(1, 100, Map.of());
        f.outcomes.put("alpha.a-0", DispatchScheduler.Outcome.REQUEUE);
        submit(scheduler, "alpha", "a-0");
        submit(scheduler, "alpha", "a-1");
        submit(scheduler, "beta", "b-0");
        f.engineUp.set(false); // the engine went away while a-0 was being created
        free();
        assertThat(f.waitingInTheStore()).isEqualTo(3);
        assertThat(scheduler.running()).isZero();

        f.outcomes.clear();
        f.engineUp.set(true);
        scheduler.drain();
        f.slots.runAll();
        assertThat(started).containsExactly("alpha.a-0", "alpha.a-0", "beta.b-0", "alpha.a-1");
    }

    /** Work other workers accepted is claimed here in the same fair order, within each tenant's slots (ADR 0063). */
    @Test
    void dispatchesAcceptedElsewhereTakeTheFairOrderAndTheirTenantsSlotLimit() {
        DispatchScheduler scheduler = scheduler(2, 3, Map.of("alpha", Limits.of(1, 1)));
        f.engineUp.set(false);
        for (String key : List.of("alpha.a-0", "alpha.a-1", "alpha.a-2", "beta.b-0", "beta.b-1")) {
            f.insert(key, SchedulerFixture.SPEC, "worker-b");
        }
        scheduler.drain();
        assertThat(started).isEmpty();

        f.engineUp.set(true);
        scheduler.drain();
        assertThat(started).containsExactly("alpha.a-0", "beta.b-0");
        free();
        free();
        assertThat(started).containsExactly("alpha.a-0", "beta.b-0", "alpha.a-1", "beta.b-1");
        f.slots.runAll();
        assertThat(started).endsWith("alpha.a-2");
    }

    /** A taken-over container counts against its tenant's slots, as against the worker's. */
    @Test
    void anAdoptedDispatchTakesItsTenantsSlot() {
        DispatchScheduler scheduler = scheduler(4, 10, Map.of("alpha", Limits.of(1, 5)));
        List<String> adopted = new ArrayList<>();
        scheduler.adopt("alpha.taken-over", execution -> adopted.add(execution.dispatchId()));
        submit(scheduler, "alpha", "a-0");
        assertThat(scheduler.running()).isEqualTo(1);
        assertThat(f.waitingInTheStore()).isEqualTo(1);

        free();
        assertThat(adopted).containsExactly("alpha.taken-over");
        assertThat(scheduler.inFlight()).containsExactly("alpha.a-0");
    }

    /** Two tenants may use one id: expiry and tracking tell them apart by their keys. */
    @Test
    void expiryAndTrackingTellTwoTenantsOfOneIdApart() {
        DispatchScheduler scheduler = scheduler(1, 10, Map.of());
        submit(scheduler, "alpha", "a-0");
        submit(scheduler, "beta", "review-42");
        f.clock.advance(Duration.ofMinutes(30));
        submit(scheduler, "alpha", "review-42");
        assertThat(scheduler.tracks("alpha.a-0")).isTrue();
        assertThat(scheduler.tracks("beta.review-42"))
                .as("it waits in the store")
                .isFalse();

        f.clock.advance(Duration.ofMinutes(45)); // beta's has waited 75 minutes, alpha's 45
        assertThat(scheduler.expire(10))
                .extracting(DispatchScheduler.Queued::id)
                .containsExactly("beta.review-42");
    }
}
