package dev.sluice.container;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import org.jboss.logging.Logger;

/**
 * Removes the containers on this engine that carry our labels and are done
 * with: stopped ones whose dispatch finished more than the retention ago, ones
 * still running for a dispatch already closed (a lost worker's), and ones
 * whose dispatch has no record at all, once past a grace period. Containers of
 * unfinished dispatches are left to reconciliation. Removal is idempotent.
 */
public final class ContainerReaper {

    private static final Logger LOG = Logger.getLogger(ContainerReaper.class);

    /** How a dispatch ended, as far as reaping its container goes. */
    public record Ending(boolean terminal, Instant finishedAt) {}

    /** The endings of dispatches by id, from their records; ids without a record are absent. */
    public interface Endings {
        Map<String, Ending> of(Collection<String> dispatchIds);
    }

    private final ContainerInventory containers;
    private final Endings endings;
    private final Duration retention;
    private final Duration orphanGrace;

    public ContainerReaper(ContainerInventory containers, Endings endings, Duration retention, Duration orphanGrace) {
        this.containers = containers;
        this.endings = endings;
        this.retention = retention;
        this.orphanGrace = orphanGrace;
    }

    /** Returns the dispatch ids whose containers were removed. */
    public List<String> reap(Instant now) {
        List<ManagedContainer> all = containers.managed();
        Map<String, Ending> ended =
                endings.of(all.stream().map(ManagedContainer::dispatchId).toList());
        List<String> removed = new ArrayList<>();
        for (ManagedContainer c : all) {
            if (done(c, ended.get(c.dispatchId()), now)) {
                containers.remove(c.id());
                removed.add(c.dispatchId());
            }
        }
        if (!removed.isEmpty()) {
            LOG.infof("removed %d containers: %s", removed.size(), removed);
        }
        return removed;
    }

    private boolean done(ManagedContainer c, Ending ending, Instant now) {
        if (ending == null) {
            return c.created().isBefore(now.minus(orphanGrace)); // no record: an orphan
        }
        if (!ending.terminal()) {
            return false;
        }
        Duration keep = c.stopped() || c.neverStarted() ? retention : orphanGrace;
        return ending.finishedAt().isBefore(now.minus(keep));
    }
}
