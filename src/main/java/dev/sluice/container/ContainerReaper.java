package dev.sluice.container;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.jboss.logging.Logger;

import dev.sluice.container.sandbox.ContainerConfig;

/**
 * Removes the containers on this engine that carry our labels and are done
 * with: stopped ones whose dispatch finished more than the retention ago, ones
 * still running for a dispatch already closed (a lost worker's), and ones
 * whose dispatch has no record at all, once past a grace period. Of the
 * finished dispatches' containers that remain, only the newest are kept, as
 * many as {@code max-retained} and as much log as {@code max-retained-log-bytes}
 * allow: an engine holding thousands of exited containers stalls. Containers
 * of unfinished dispatches are left to reconciliation. Containers labelled
 * with another store are another deployment's, whose records this worker
 * cannot see: they are never touched. Removal is idempotent.
 */
public final class ContainerReaper {

    private static final Logger LOG = Logger.getLogger(ContainerReaper.class);

    /**
     * How a dispatch ended, as far as reaping its container goes.
     *
     * @param printedBytes what the dispatch wrote to both streams, for the log budget
     */
    public record Ending(boolean terminal, Instant finishedAt, long printedBytes) {}

    /** The endings of dispatches by id, from their records; ids without a record are absent. */
    public interface Endings {
        Map<String, Ending> of(Collection<String> dispatchIds);
    }

    /**
     * What is kept, and for how long.
     *
     * @param maxLogBytesPerContainer the most log the runtime holds for one container (its rotation budget)
     */
    public record Retention(
            Duration retention,
            Duration orphanGrace,
            int maxRetained,
            long maxRetainedLogBytes,
            long maxLogBytesPerContainer) {

        public static Retention of(ContainerConfig config, Duration orphanGrace) {
            return new Retention(
                    config.retention(),
                    orphanGrace,
                    config.maxRetained(),
                    config.maxRetainedLogBytes().asLongValue(),
                    config.logMaxSize().asLongValue() * config.logMaxFiles());
        }
    }

    /** A container whose dispatch finished, in the order it would be given up. */
    private record Finished(ManagedContainer container, Ending ending) {}

    private final ContainerInventory containers;
    private final Endings endings;
    private final Retention keep;
    private final String storeId;

    /** @param storeId the store {@code endings} reads, whose containers these are */
    public ContainerReaper(ContainerInventory containers, Endings endings, Retention keep, String storeId) {
        this.containers = containers;
        this.endings = endings;
        this.keep = keep;
        this.storeId = storeId;
    }

    /** Returns the dispatch ids whose containers were removed. */
    public List<String> reap(Instant now) {
        List<ManagedContainer> all =
                containers.managed().stream().filter(c -> c.ofStore(storeId)).toList();
        Map<String, Ending> ended =
                endings.of(all.stream().map(ManagedContainer::dispatchId).toList());
        List<ManagedContainer> doomed = new ArrayList<>();
        List<Finished> kept = new ArrayList<>();
        for (ManagedContainer c : all) {
            Ending ending = ended.get(c.dispatchId());
            if (done(c, ending, now)) {
                doomed.add(c);
            } else if (ending != null && ending.terminal()) {
                kept.add(new Finished(c, ending));
            }
        }
        int byCount = doomed.size();
        doomed.addAll(beyondBudget(kept));
        List<String> removed = new ArrayList<>();
        for (ManagedContainer c : doomed) {
            containers.remove(c.id());
            removed.add(c.dispatchId());
        }
        if (!removed.isEmpty()) {
            LOG.infof(
                    "removed %d containers (%d past their time, %d past the retention budget): %s",
                    removed.size(), byCount, removed.size() - byCount, removed);
        }
        return removed;
    }

    private boolean done(ManagedContainer c, Ending ending, Instant now) {
        if (ending == null) {
            return c.created().isBefore(now.minus(keep.orphanGrace())); // no record: an orphan
        }
        if (!ending.terminal()) {
            return false;
        }
        Duration kept = c.stopped() || c.neverStarted() ? keep.retention() : keep.orphanGrace();
        return ending.finishedAt().isBefore(now.minus(kept));
    }

    /** The finished dispatches' containers past the newest that fit the count and the log budget. */
    private List<ManagedContainer> beyondBudget(List<Finished> finished) {
        finished.sort(
                Comparator.comparing((Finished f) -> f.ending().finishedAt()).reversed());
        List<ManagedContainer> over = new ArrayList<>();
        long logBytes = 0;
        for (int i = 0; i < finished.size(); i++) {
            Finished f = finished.get(i);
            logBytes += Math.min(f.ending().printedBytes(), keep.maxLogBytesPerContainer());
            if (i >= keep.maxRetained() || logBytes > keep.maxRetainedLogBytes()) {
                over.add(f.container());
            }
        }
        return over;
    }
}
