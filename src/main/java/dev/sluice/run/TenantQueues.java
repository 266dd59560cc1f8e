package dev.sluice.run;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

import dev.sluice.record.DispatchKey;

/**
 * This worker's side of the queue (ADR 0063): for each tenant, its line of
 * dispatches this worker claimed and has not started (waiting for a pull, or
 * for the engine), its running count, its places held for dispatches being
 * recorded, and the number of the start that last served it; the
 * {@link DispatchScheduler}'s lock guards it. It orders the claims: the next
 * start goes to the tenant, among those with work waiting and a run slot of
 * their own free, that was least recently started here (one never started
 * before any that was); within a tenant, first come first served. So a
 * tenant with 500 queued delays another's next start by one start at most
 * (ADR 0057).
 */
final class TenantQueues {

    /** A dispatch leaving the queue for a slot, and its tenant's turn before, to give back should it return. */
    record Start(DispatchScheduler.Queued queued, long number, long turnBefore) {}

    private static final Comparator<Tenant> LONGEST_WAITING =
            Comparator.<Tenant>comparingLong(t -> t.lastStarted).thenComparingLong(t -> t.firstSeen);

    /**
     * One tenant's line and counts. Kept once it has come, so that its last
     * start still counts when it comes back; there are as many as the
     * worker's tokens name.
     */
    private static final class Tenant {
        final String name;
        final long firstSeen;
        final Deque<DispatchScheduler.Queued> line = new ArrayDeque<>();
        /** The number of the start that last served it; 0 before its first. */
        long lastStarted;

        int running;
        int reserved;

        Tenant(String name, long firstSeen) {
            this.name = name;
            this.firstSeen = firstSeen;
        }
    }

    private final TenantLimits limits;
    private final Map<String, Tenant> tenants = new HashMap<>();
    private long starts;
    private int running;
    private int queued;
    private int reserved;

    TenantQueues(TenantLimits limits) {
        this.limits = limits;
    }

    int running() {
        return running;
    }

    int queued() {
        return queued;
    }

    /** Places held in this worker for dispatches being recorded. */
    int reserved() {
        return reserved;
    }

    /** Places held in this worker for a tenant's dispatches being recorded. */
    int reserved(String tenant) {
        Tenant t = tenants.get(tenant);
        return t == null ? 0 : t.reserved;
    }

    void reserve(String tenant, int n) {
        tenant(tenant).reserved += n;
        reserved += n;
    }

    void release(String tenant, int n) {
        tenant(tenant).reserved -= n;
        reserved -= n;
    }

    /**
     * The tenants among {@code waiting} (those with dispatches in the store's
     * queue, the longest waiting first) that have a run slot of their own free,
     * in the order they are to be served.
     */
    List<String> claimOrder(List<String> waiting) {
        return waiting.stream()
                .filter(name -> runningOf(name) < limits.of(name).maxRunning())
                .sorted(Comparator.comparingLong(name -> {
                    Tenant t = tenants.get(name);
                    return t == null ? 0 : t.lastStarted;
                }))
                .toList();
    }

    /** A dispatch claimed from the store's queue starts now, counted as running: its tenant has had its turn. */
    Start claimed(DispatchScheduler.Queued q) {
        Tenant t = tenant(q.tenant());
        Start start = new Start(q, ++starts, t.lastStarted);
        t.lastStarted = start.number();
        t.running++;
        running++;
        return start;
    }

    /**
     * A started dispatch gave its slot back before it ran and went back to the
     * store's queue; its tenant gets back the turn it used, unless it started
     * another since.
     */
    void unstart(Start start) {
        Tenant t = tenant(start.queued().tenant());
        t.running--;
        running--;
        if (t.lastStarted == start.number()) {
            t.lastStarted = start.turnBefore();
        }
    }

    private int runningOf(String name) {
        Tenant t = tenants.get(name);
        return t == null ? 0 : t.running;
    }

    /**
     * The next dispatch claimed here to start, among those that are {@code ready},
     * counted as running; empty when no tenant with one ready has a slot free.
     * One whose image is being pulled waits in its place, and those behind it may start.
     */
    Optional<Start> next(Predicate<DispatchScheduler.Queued> ready) {
        Optional<Tenant> next = tenants.values().stream()
                .filter(t -> t.running < limits.of(t.name).maxRunning()
                        && t.line.stream().anyMatch(ready))
                .min(LONGEST_WAITING);
        return next.map(t -> {
            DispatchScheduler.Queued first =
                    t.line.stream().filter(ready).findFirst().orElseThrow();
            t.line.remove(first);
            Start start = new Start(first, ++starts, t.lastStarted);
            t.lastStarted = start.number();
            t.running++;
            queued--;
            running++;
            return start;
        });
    }

    /** A started dispatch gave its slot back. */
    void ended(String tenant) {
        tenant(tenant).running--;
        running--;
    }

    /**
     * A started dispatch comes back first in its tenant's line here (it waits
     * for its image), and the tenant gets back the turn it used, unless it
     * started another since.
     */
    void requeue(Start start) {
        unstart(start);
        tenant(start.queued().tenant()).line.addFirst(start.queued());
        queued++;
    }

    /** A dispatch taken over runs, even past its tenant's limit: its container runs whether or not we watch it. */
    void adopt(String id) {
        tenant(DispatchKey.tenantOf(id)).running++;
        running++;
    }

    boolean contains(String id) {
        Tenant t = tenants.get(DispatchKey.tenantOf(id));
        return t != null && t.line.stream().anyMatch(q -> q.id().equals(id));
    }

    /** Replaces a queued dispatch, in its place, by what {@code change} makes of it. */
    void replace(String id, UnaryOperator<DispatchScheduler.Queued> change) {
        Tenant t = tenants.get(DispatchKey.tenantOf(id));
        if (t == null) {
            return;
        }
        List<DispatchScheduler.Queued> line = new ArrayList<>(t.line);
        line.replaceAll(q -> q.id().equals(id) ? change.apply(q) : q);
        t.line.clear();
        t.line.addAll(line);
    }

    boolean remove(String id) {
        Tenant t = tenants.get(DispatchKey.tenantOf(id));
        if (t == null || !t.line.removeIf(q -> q.id().equals(id))) {
            return false;
        }
        queued--;
        return true;
    }

    /** Takes out every queued dispatch queued before {@code cutoff}, oldest first. */
    List<DispatchScheduler.Queued> takeQueuedBefore(Instant cutoff) {
        return take(q -> q.queuedAt().isBefore(cutoff));
    }

    /** Takes out every queued dispatch that {@code which} accepts, oldest first. */
    List<DispatchScheduler.Queued> take(Predicate<DispatchScheduler.Queued> which) {
        List<DispatchScheduler.Queued> taken = new ArrayList<>();
        for (Tenant t : tenants.values()) {
            for (Iterator<DispatchScheduler.Queued> it = t.line.iterator(); it.hasNext(); ) {
                DispatchScheduler.Queued q = it.next();
                if (which.test(q)) {
                    it.remove();
                    taken.add(q);
                }
            }
        }
        queued -= taken.size();
        taken.sort(Comparator.comparing(DispatchScheduler.Queued::queuedAt));
        return taken;
    }

    private Tenant tenant(String name) {
        return tenants.computeIfAbsent(name, n -> new Tenant(n, tenants.size()));
    }
}
