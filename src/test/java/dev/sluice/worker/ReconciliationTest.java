package dev.sluice.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.sluice.container.ContainerInventory;
import dev.sluice.container.ManagedContainer;
import dev.sluice.store.StoreException;
import dev.sluice.testsupport.MutableClock;

/** What the startup probe reads: reconciliation's first pass, failed, retried and done. */
class ReconciliationTest {

    private static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");

    private final MutableClock clock = new MutableClock(T0);
    private final List<String> requeued = new ArrayList<>();
    private final List<Reconciler.Unfinished> unfinished = new ArrayList<>();
    private int failuresLeft;
    private int sweeps;

    private final Reconciler.Lifecycle lifecycle = new Reconciler.Lifecycle() {
        @Override
        public List<Reconciler.Unfinished> undriven(String workerId) {
            if (failuresLeft > 0) {
                failuresLeft--;
                throw new StoreException("unfinished", new java.sql.SQLException("connection refused"));
            }
            return unfinished;
        }

        @Override
        public void requeue(String dispatchId) {
            requeued.add(dispatchId);
        }

        @Override
        public void closeContainerLost(String dispatchId) {
            throw new AssertionError(dispatchId);
        }

        @Override
        public void abandon(String dispatchId, String containerId) {
            throw new AssertionError(dispatchId);
        }

        @Override
        public void resume(String dispatchId, String containerId) {
            throw new AssertionError(dispatchId);
        }

        @Override
        public List<String> closeLost(String workerId, Instant now, int limit) {
            sweeps++;
            return List.of();
        }
    };

    private final ContainerInventory inventory = new ContainerInventory() {
        @Override
        public List<ManagedContainer> managed() {
            return List.of();
        }

        @Override
        public List<ManagedContainer> managedBy(String workerId) {
            return List.of();
        }

        @Override
        public void remove(String containerId) {}
    };

    private final Reconciliation reconciliation =
            new Reconciliation(new Reconciler(lifecycle, inventory, clock, "w"), clock, Duration.ZERO);

    @Test
    void notDoneUntilAPassCompletes() {
        assertThat(reconciliation.progress()).isEqualTo(new Reconciliation.Progress(false, false, 0, null));
        reconciliation.started();
        assertThat(reconciliation.pass()).isTrue();
        assertThat(reconciliation.progress()).isEqualTo(new Reconciliation.Progress(true, false, 1, null));
        assertThat(sweeps).isEqualTo(1);
    }

    @Test
    void aFailedPassSaysWhyAndTheNextOneTakesUpWhatThePreviousInstanceLeft() {
        unfinished.add(new Reconciler.Unfinished("left", false, null, false, T0.minusSeconds(1)));
        failuresLeft = 1;
        reconciliation.started();
        reconciliation.pass();
        Reconciliation.Progress failed = reconciliation.progress();
        assertThat(failed.done()).isFalse();
        assertThat(failed.problem()).contains("connection refused");
        assertThat(requeued).isEmpty();
        assertThat(sweeps).as("lost workers are looked for all the same").isEqualTo(1);

        // Retried by the periodic pass, however young the dispatch the previous instance left still is.
        clock.advance(Duration.ofSeconds(2));
        reconciliation.pass();
        assertThat(reconciliation.progress()).isEqualTo(new Reconciliation.Progress(true, false, 2, null));
        assertThat(requeued).containsExactly("left");
    }

    @Test
    void aLaterFailureDoesNotUndoStarted() {
        reconciliation.started();
        reconciliation.pass();
        failuresLeft = 1;
        reconciliation.pass();
        assertThat(reconciliation.progress().done()).isTrue();
        assertThat(reconciliation.progress().problem()).contains("connection refused");
    }
}
