package dev.sluice.dispatch;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jboss.logging.Logger;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.ManagedContainer;

/**
 * Removes the containers on this engine that carry our labels and are done
 * with: stopped ones whose dispatch finished more than the retention ago, ones
 * still running for a dispatch already closed (a lost worker's), and ones
 * whose dispatch has no record at all, once past a grace period. Containers of
 * unfinished dispatches are left to reconciliation. Removal is idempotent.
 */
final class Reaper {

    private static final Logger LOG = Logger.getLogger(Reaper.class);

    private final ContainerRuntime runtime;
    private final DispatchStore store;
    private final Duration retention;
    private final Duration orphanGrace;

    Reaper(ContainerRuntime runtime, DispatchStore store, Duration retention, Duration orphanGrace) {
        this.runtime = runtime;
        this.store = store;
        this.retention = retention;
        this.orphanGrace = orphanGrace;
    }

    /** Returns the dispatch ids whose containers were removed. */
    List<String> reap(Instant now) {
        List<ManagedContainer> containers = runtime.managed();
        Map<String, DispatchStore.Ending> endings = store.endings(containers.stream().map(ManagedContainer::dispatchId).toList());
        List<String> removed = new ArrayList<>();
        for (ManagedContainer c : containers) {
            if (done(c, endings.get(c.dispatchId()), now)) {
                runtime.remove(c.id());
                removed.add(c.dispatchId());
            }
        }
        if (!removed.isEmpty()) {
            LOG.infof("removed %d containers: %s", removed.size(), removed);
        }
        return removed;
    }

    private boolean done(ManagedContainer c, DispatchStore.Ending ending, Instant now) {
        if (ending == null) {
            return c.created().isBefore(now.minus(orphanGrace)); // no record: an orphan
        }
        if (!ending.status().terminal()) {
            return false;
        }
        Duration keep = c.stopped() || c.neverStarted() ? retention : orphanGrace;
        return ending.finishedAt().isBefore(now.minus(keep));
    }
}
