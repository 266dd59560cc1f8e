package dev.sluice.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.sluice.container.ContainerInventory;
import dev.sluice.container.ManagedContainer;
import dev.sluice.testsupport.MutableClock;

/** What reconciliation decides for each dispatch it finds, with a clock the test moves. */
class ReconcilerTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
    private static final String ME = "worker-1";
    /** When an instance started that has run for long: only settling decides. */
    private static final Instant LONG_AGO = T0.minus(Duration.ofHours(1));

    private final MutableClock clock = new MutableClock(T0);
    private final List<Reconciler.Unfinished> unfinished = new ArrayList<>();
    private final List<ManagedContainer> containers = new ArrayList<>();
    private final List<String> calls = new ArrayList<>();
    private Set<String> tracked = Set.of();

    private final Reconciler.Lifecycle lifecycle = new Reconciler.Lifecycle() {
        @Override
        public List<Reconciler.Unfinished> undriven(String workerId) {
            assertThat(workerId).isEqualTo(ME);
            return unfinished.stream().filter(d -> !tracked.contains(d.id())).toList();
        }

        @Override
        public void requeue(String dispatchId) {
            calls.add("requeue " + dispatchId);
        }

        @Override
        public void closeContainerLost(String dispatchId) {
            calls.add("lost " + dispatchId);
        }

        @Override
        public void abandon(String dispatchId, String containerId) {
            calls.add("abandon " + dispatchId + " " + containerId);
        }

        @Override
        public void resume(String dispatchId, String containerId) {
            calls.add("resume " + dispatchId + " " + containerId);
        }

        @Override
        public List<String> closeLost(String workerId, Instant now, int limit) {
            calls.add("close lost of others than " + workerId + " before " + now + ", " + limit + " at most");
            return List.of("x", "y");
        }
    };

    private final ContainerInventory inventory = new ContainerInventory() {
        @Override
        public List<ManagedContainer> managed() {
            throw new AssertionError("reconciliation asks the engine for its own worker's containers only");
        }

        /** As the engine's label filter answers. */
        @Override
        public List<ManagedContainer> managedBy(String workerId) {
            return containers.stream()
                    .filter(c -> workerId.equals(c.workerId()))
                    .toList();
        }

        @Override
        public void remove(String containerId) {
            throw new AssertionError("reconciliation removes nothing");
        }
    };

    private final Reconciler reconciler = new Reconciler(lifecycle, inventory, clock, ME);

    private void dispatch(String id, boolean running, String containerId, boolean secrets, Instant createdAt) {
        unfinished.add(new Reconciler.Unfinished(id, running, containerId, secrets, createdAt));
    }

    private void container(String id, String dispatchId, String workerId, Instant created) {
        containers.add(new ManagedContainer(id, dispatchId, workerId, "store", "running", created));
    }

    @Test
    void withoutAContainerARunningDispatchIsLostAndAnyOtherIsQueuedAgain() {
        dispatch("queued", false, null, false, T0.minusSeconds(60));
        dispatch("starting", false, null, true, T0.minusSeconds(60));
        dispatch("running", true, "c-gone", false, T0.minusSeconds(60));
        assertThat(reconciler.reconcileOwn(clock.instant())).isEqualTo(3);
        assertThat(calls).containsExactly("requeue queued", "requeue starting", "lost running");
    }

    @Test
    void aContainerIsTakenOverUnlessItsOutputCannotBeMasked() {
        dispatch("plain", true, "c1", false, T0.minusSeconds(60));
        dispatch("secret", true, "c2", true, T0.minusSeconds(60));
        container("c1", "plain", ME, T0.minusSeconds(50));
        container("c2", "secret", ME, T0.minusSeconds(50));
        reconciler.reconcileOwn(clock.instant());
        assertThat(calls).containsExactly("resume plain c1", "abandon secret c2");
    }

    @Test
    void theRecordedContainerWinsElseTheNewestLabelledOne() {
        dispatch("named", false, "c-named", false, T0.minusSeconds(60));
        dispatch("unnamed", false, null, false, T0.minusSeconds(60));
        container("c-other", "named", ME, T0.minusSeconds(10));
        container("c-named", "named", ME, T0.minusSeconds(50));
        container("c-old", "unnamed", ME, T0.minusSeconds(50));
        container("c-new", "unnamed", ME, T0.minusSeconds(20));
        reconciler.reconcileOwn(clock.instant());
        assertThat(calls).containsExactly("resume named c-named", "resume unnamed c-new");
    }

    @Test
    void containersOfOtherWorkersAreNotOurs() {
        dispatch("d", true, null, false, T0.minusSeconds(60));
        container("c-theirs", "d", "worker-2", T0.minusSeconds(50));
        reconciler.reconcileOwn(clock.instant());
        assertThat(calls).containsExactly("lost d");
    }

    @Test
    void laterRoundsLeaveAloneWhatIsDrivenHereOrStillSettling() {
        dispatch("driven", true, null, false, T0.minusSeconds(600));
        dispatch("settling", false, null, false, T0.minusSeconds(10));
        dispatch("forgotten", false, null, false, T0.minusSeconds(600));
        tracked = Set.of("driven");
        assertThat(reconciler.reconcileOwn(LONG_AGO)).isEqualTo(1);
        assertThat(calls).containsExactly("requeue forgotten");

        calls.clear();
        clock.advance(Reconciler.SETTLING);
        reconciler.reconcileOwn(LONG_AGO);
        assertThat(calls).containsExactly("requeue settling", "requeue forgotten");
    }

    @Test
    void atStartNothingIsSettlingStill() {
        dispatch("just-now", false, null, false, T0);
        reconciler.reconcileOwn(clock.instant());
        assertThat(calls).containsExactly("requeue just-now");
    }

    @Test
    void aYoungInstanceTakesUpAllItsPreviousInstanceLeftAndNothingOfItsOwn() {
        dispatch("left-just-before", false, null, false, T0.minusSeconds(1));
        dispatch("accepted-since", false, null, false, T0.plusSeconds(5));
        clock.advance(Duration.ofSeconds(10));
        reconciler.reconcileOwn(T0);
        assertThat(calls).containsExactly("requeue left-just-before");
    }

    @Test
    void withNothingToTakeUpTheEngineIsNotAsked() {
        dispatch("driven", false, null, false, T0.minusSeconds(60));
        tracked = Set.of("driven");
        Reconciler engineDown = new Reconciler(
                lifecycle,
                new ContainerInventory() {
                    @Override
                    public List<ManagedContainer> managed() {
                        throw new IllegalStateException("engine down");
                    }

                    @Override
                    public List<ManagedContainer> managedBy(String workerId) {
                        throw new IllegalStateException("engine down");
                    }

                    @Override
                    public void remove(String containerId) {
                        throw new IllegalStateException("engine down");
                    }
                },
                clock,
                ME);
        assertThat(engineDown.reconcileOwn(clock.instant())).isZero();
        assertThat(calls).isEmpty();
    }

    @Test
    void lostWorkersAreSweptAsOfNowInBatches() {
        clock.advance(Duration.ofMinutes(1));
        assertThat(reconciler.sweepLost()).isEqualTo(2);
        assertThat(calls)
                .containsExactly("close lost of others than worker-1 before " + T0.plusSeconds(60) + ", "
                        + Reconciler.LOST_BATCH + " at most");
    }
}
