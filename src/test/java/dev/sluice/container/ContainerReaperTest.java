package dev.sluice.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Which containers the reaper removes, and when, decided by their dispatches' records. */
class ContainerReaperTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
    private static final Duration RETENTION = Duration.ofHours(1);
    private static final Duration GRACE = Duration.ofMinutes(5);

    private final List<ManagedContainer> containers = new ArrayList<>();
    private final Map<String, ContainerReaper.Ending> endings = new HashMap<>();
    private final List<String> removed = new ArrayList<>();

    private final ContainerInventory inventory = new ContainerInventory() {
        @Override
        public List<ManagedContainer> managed() {
            return containers.stream().filter(c -> !removed.contains(c.id())).toList();
        }

        @Override
        public List<ManagedContainer> managedBy(String workerId) {
            throw new AssertionError("the reaper looks at every container of its store, whichever worker made it");
        }

        @Override
        public void remove(String containerId) {
            removed.add(containerId);
        }
    };

    private final ContainerReaper.Endings endingsOf = ids -> {
        Map<String, ContainerReaper.Ending> asked = new HashMap<>();
        ids.forEach(id -> {
            if (endings.containsKey(id)) {
                asked.put(id, endings.get(id));
            }
        });
        return asked;
    };

    private static final String STORE = "this-store";

    private final ContainerReaper reaper = reaper(500, 10L << 30);

    private ContainerReaper reaper(int maxRetained, long maxLogBytes) {
        return new ContainerReaper(
                inventory,
                endingsOf,
                new ContainerReaper.Retention(RETENTION, GRACE, maxRetained, maxLogBytes, 128L << 20),
                STORE);
    }

    private void container(String dispatchId, String state) {
        containers.add(new ManagedContainer("c-" + dispatchId, dispatchId, "w", STORE, state, T0));
    }

    /** A finished dispatch's stopped container, finished {@code minutesAgo} before T0, having printed {@code bytes}. */
    private void finished(String dispatchId, int minutesAgo, long bytes) {
        container(dispatchId, "exited");
        endings.put(dispatchId, new ContainerReaper.Ending(true, T0.minusSeconds(60L * minutesAgo), bytes));
    }

    @Test
    void pastTheCountOnlyTheNewestFinishedContainersAreKept() {
        for (int i = 0; i < 8; i++) {
            finished("d" + i, i, 1000); // d0 the newest
        }
        container("running", "running");
        endings.put("running", new ContainerReaper.Ending(false, null, 0));
        assertThat(reaper(5, 10L << 30).reap(T0)).containsExactlyInAnyOrder("d5", "d6", "d7");
        assertThat(reaper(5, 10L << 30).reap(T0)).isEmpty();
    }

    @Test
    void pastTheLogBudgetTheOldestGoFirstEachCountedAtMostItsRotationBudget() {
        finished("new", 1, 40L << 20);
        finished("flood", 2, 5L << 30); // holds at most its rotation budget, 128 MiB
        finished("old", 3, 40L << 20);
        finished("oldest", 4, 1);
        assertThat(reaper(500, 200L << 20).reap(T0)).containsExactlyInAnyOrder("old", "oldest");
    }

    @Test
    void aStoppedContainerOfAFinishedDispatchGoesOnceTheRetentionIsOver() {
        container("done", "exited");
        endings.put("done", new ContainerReaper.Ending(true, T0, 0));
        assertThat(reaper.reap(T0.plus(RETENTION))).isEmpty();
        assertThat(reaper.reap(T0.plus(RETENTION).plusMillis(1))).containsExactly("done");
        assertThat(removed).containsExactly("c-done");
    }

    @Test
    void aContainerThatNeverStartedIsKeptLikeAStoppedOne() {
        container("cancelled", "created");
        endings.put("cancelled", new ContainerReaper.Ending(true, T0, 0));
        assertThat(reaper.reap(T0.plus(GRACE).plusSeconds(1))).isEmpty();
        assertThat(reaper.reap(T0.plus(RETENTION).plusSeconds(1))).containsExactly("cancelled");
    }

    @Test
    void aContainerStillRunningForAClosedDispatchGoesAfterTheGrace() {
        container("lost", "running");
        endings.put("lost", new ContainerReaper.Ending(true, T0, 0));
        assertThat(reaper.reap(T0.plus(GRACE))).isEmpty();
        assertThat(reaper.reap(T0.plus(GRACE).plusSeconds(1))).containsExactly("lost");
    }

    @Test
    void anOrphanGoesOnceOlderThanTheGrace() {
        container("orphan", "exited");
        assertThat(reaper.reap(T0.plus(GRACE))).isEmpty();
        assertThat(reaper.reap(T0.plus(GRACE).plusSeconds(1))).containsExactly("orphan");
    }

    @Test
    void anotherStoresContainersAreNeverTakenForOrphans() {
        // Another deployment on the same engine: its records are in a store this worker cannot read.
        containers.add(new ManagedContainer("c-theirs", "theirs", "w", "other-store", "running", T0));
        containers.add(new ManagedContainer("c-old", "old", "w", null, "exited", T0)); // from before stores were named
        container("ours", "exited");

        assertThat(reaper.reap(T0.plus(Duration.ofDays(30)))).containsExactlyInAnyOrder("ours", "old");
    }

    @Test
    void theContainerOfAnUnfinishedDispatchIsNeverRemoved() {
        container("running", "running");
        container("exited-early", "exited");
        endings.put("running", new ContainerReaper.Ending(false, null, 0));
        endings.put("exited-early", new ContainerReaper.Ending(false, null, 0));
        assertThat(reaper.reap(T0.plus(Duration.ofDays(365)))).isEmpty();
        assertThat(removed).isEmpty();
    }
}
