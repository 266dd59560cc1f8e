package dev.sluice.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import javax.sql.DataSource;

/**
 * Whether the store answers, from a trivial query on a thread of its own, so a
 * hung store holds a prober, never a caller: health checks read the last
 * answer instead of waiting on the store. A probe still waiting is not
 * doubled; while it waits the store counts as not answering, and once nothing
 * has answered for the stall timeout the store is stalled.
 */
public final class StoreMonitor {

    /**
     * The store as last seen.
     *
     * @param answering   the last probe got its answer in time
     * @param problem     why not, or {@code null}
     * @param lastAnswer  when a probe last got an answer (the start, before any)
     * @param stalled     nothing has answered for longer than the stall timeout
     */
    public record Health(boolean answering, String problem, Instant lastAnswer, boolean stalled) {}

    private final DataSource dataSource;
    private final boolean embedded;
    private final Duration probeTimeout;
    private final Duration stallTimeout;
    private final Executor prober;
    private final Clock clock;
    private final AtomicReference<CompletableFuture<Void>> inFlight = new AtomicReference<>();
    private volatile Instant lastAnswer;
    private volatile Health last;

    public StoreMonitor(
            DataSource dataSource,
            boolean embedded,
            Duration probeTimeout,
            Duration stallTimeout,
            Executor prober,
            Clock clock) {
        this.dataSource = dataSource;
        this.embedded = embedded;
        this.probeTimeout = probeTimeout;
        this.stallTimeout = stallTimeout;
        this.prober = prober;
        this.clock = clock;
        this.lastAnswer = clock.instant();
        this.last = new Health(false, "not checked yet", lastAnswer, false);
    }

    /** Whether this is the embedded store, whose stall only a restart of this process can end. */
    public boolean embedded() {
        return embedded;
    }

    /** Asks the store, waiting at most the probe timeout, and records the answer. */
    public Health probe() {
        CompletableFuture<Void> probe = inFlight.get();
        if (probe == null || probe.isDone()) {
            probe = CompletableFuture.runAsync(this::selectOne, prober);
            inFlight.set(probe);
        }
        Health now;
        try {
            probe.get(probeTimeout.toMillis(), TimeUnit.MILLISECONDS);
            lastAnswer = clock.instant();
            now = new Health(true, null, lastAnswer, false);
        } catch (TimeoutException e) {
            now = unanswered("the store did not answer within " + probeTimeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            now = unanswered("the store failed: " + rootMessage(e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return last;
        }
        last = now;
        return now;
    }

    private Health unanswered(String problem) {
        boolean stalled = Duration.between(lastAnswer, clock.instant()).compareTo(stallTimeout) > 0;
        String since = stalled ? "; no answer since " + lastAnswer : "";
        return new Health(false, problem + since, lastAnswer, stalled);
    }

    public Health last() {
        return last;
    }

    private void selectOne() {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.setQueryTimeout((int) Math.max(1, probeTimeout.toSeconds()));
            s.execute("SELECT 1");
        } catch (SQLException e) {
            throw new StoreException("probe", e);
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? "no detail" : root.getMessage();
    }
}
