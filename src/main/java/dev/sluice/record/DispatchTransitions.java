package dev.sluice.record;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

import com.fasterxml.jackson.core.type.TypeReference;

import dev.sluice.store.Jdbc;
import dev.sluice.store.JsonColumns;
import dev.sluice.store.ResultBodies;

/**
 * The lifecycle's state machine in the store (docs/api.md, section 6): queued,
 * starting, running, then one terminal state. Every change is a conditional
 * update on the current status, so a terminal state is never overwritten and
 * of two writers only one wins. Each change it made before the end is
 * announced; the end is announced by the {@code run.Finisher}.
 */
public final class DispatchTransitions {

    public static final String TERMINAL = "('succeeded', 'failed', 'timed_out', 'cancelled', 'error')";

    /** Where a result's body goes: in the row, or in a file the row names (ADR 0017). */
    private static final String BODY_COLUMNS = "result_body = ?, result_file = ?, result_size = ?";

    /** Which states a dispatch may end from. */
    public enum From {
        ANY_UNFINISHED("status NOT IN " + TERMINAL),
        QUEUED("status = 'queued'");

        final String condition;

        From(String condition) {
            this.condition = condition;
        }
    }

    /**
     * A dispatch of a lost worker: what its closing result needs, and whether
     * it may be attempted again (ADR 0066).
     */
    public record Lost(
            String id,
            DispatchSpec spec,
            Instant startedAt,
            String workerId,
            String containerId,
            Attempts attempts,
            boolean anyWorkerMayRun,
            boolean cancelRequested) {

        /**
         * Its request allowed another attempt, it may run on any worker (a
         * pinned one's secrets or workspace were lost with its worker), and no
         * one asked for it to stop.
         */
        boolean triedAgain() {
            return attempts.attempt() < spec.maxAttempts() && anyWorkerMayRun && !cancelRequested;
        }
    }

    /** A lost worker's dispatch that waits in the queue for its next attempt; {@code containerId} ran the last. */
    public record Retried(String id, int attempt, String workerId, String containerId) {}

    /** What one sweep of lost workers' dispatches did: those it ended, and those it queued again. */
    public record Swept(List<DispatchResult> closed, List<Retried> retried) {}

    private static final TypeReference<List<DispatchResult.EarlierAttempt>> EARLIER = new TypeReference<>() {};

    /** The result, summary and digest (its JSON) that close a dispatch. */
    public record Closing(DispatchResult result, DispatchSummary summary, byte[] digest) {

        String digestText() {
            return new String(digest, StandardCharsets.UTF_8);
        }
    }

    private final Jdbc jdbc;
    private final JsonColumns json;
    private final ResultBodies bodies;
    private final Consumer<DispatchStateChanged> changed;

    public DispatchTransitions(Jdbc jdbc, JsonColumns json, ResultBodies bodies) {
        this(jdbc, json, bodies, change -> {});
    }

    public DispatchTransitions(
            Jdbc jdbc, JsonColumns json, ResultBodies bodies, Consumer<DispatchStateChanged> changed) {
        this.jdbc = jdbc;
        this.json = json;
        this.bodies = bodies;
        this.changed = changed;
    }

    /**
     * queued → starting, by the worker whose claim it carries; false when the
     * dispatch is no longer queued (cancelled meanwhile) or no longer that
     * worker's (its lease lapsed, and another claimed it): of two workers that
     * each think they hold it, only the claim's holder starts it.
     */
    public boolean markStarting(String id, String worker) {
        return announced(
                id,
                Dispatch.Status.STARTING,
                jdbc.update(
                        "UPDATE dispatches SET status = 'starting' WHERE id = ? AND status = 'queued' AND claimed_by = ?",
                        id,
                        worker));
    }

    /** starting → queued, when the engine could not be reached before anything was created. */
    public boolean markQueuedAgain(String id) {
        return announced(
                id,
                Dispatch.Status.QUEUED,
                jdbc.update("UPDATE dispatches SET status = 'queued' WHERE id = ? AND status = 'starting'", id));
    }

    public void recordContainer(String id, String containerId) {
        jdbc.update("UPDATE dispatches SET container_id = ? WHERE id = ?", containerId, id);
    }

    /** starting → running; also fills in a start time that a crash kept from being stored. */
    public boolean markRunning(String id, Instant startedAt) {
        return announced(
                id,
                Dispatch.Status.RUNNING,
                jdbc.update(
                        "UPDATE dispatches SET status = 'running', started_at = ? WHERE id = ? AND status = 'starting'",
                        startedAt,
                        id));
    }

    private boolean announced(String id, Dispatch.Status status, int updated) {
        if (updated == 0) {
            return false;
        }
        changed.accept(new DispatchStateChanged(id, status));
        return true;
    }

    /** Notes a cancellation for the runner to act on; false when the dispatch is terminal or unknown. */
    public boolean requestCancel(String id) {
        return jdbc.update(
                        "UPDATE dispatches SET cancel_requested = TRUE WHERE id = ? AND status NOT IN " + TERMINAL, id)
                > 0;
    }

    /**
     * The result's terminal state, with its body and its outbox row in the
     * same transaction; false when {@code from} no longer holds (and then its
     * body is discarded).
     */
    public boolean finish(Closing closing, From from, Outbox outbox) {
        DispatchResult result = closing.result();
        // Of the attempt the result was built for: one queued again meanwhile is another's to end.
        String sql = "UPDATE dispatches SET status = ?, " + BODY_COLUMNS + ", summary = ?, digest = ?, "
                + "finished_at = ?, started_at = COALESCE(started_at, ?) WHERE id = ? AND attempt = ? AND "
                + from.condition;
        ResultBodies.Put body = bodies.put(result.dispatchId(), out -> json.write(result, out));
        boolean stored = false;
        try {
            stored = jdbc.transaction("store result", tx -> {
                if (tx.update(
                                sql,
                                result.status().wire(),
                                body.inRow(),
                                body.file(),
                                body.size(),
                                json.write(closing.summary()),
                                closing.digestText(),
                                result.finishedAt(),
                                result.startedAt(),
                                result.dispatchId(),
                                result.attempt())
                        == 0) {
                    return false;
                }
                enqueue(tx, outbox, result.dispatchId(), result.finishedAt());
                return true;
            });
            return stored;
        } finally {
            if (!stored) {
                bodies.discard(body);
            }
        }
    }

    /** Queues the delivery of the result just stored in {@code tx}, if its dispatch has a callback URL. */
    private static void enqueue(Jdbc.Tx tx, Outbox outbox, String id, Instant finishedAt) {
        tx.one(
                        "SELECT tenant, callback_url FROM dispatches WHERE id = ? AND callback_url IS NOT NULL",
                        row -> Map.entry(row.string("tenant"), row.string("callback_url")),
                        id)
                .ifPresent(to -> outbox.enqueue(tx, id, to.getKey(), to.getValue(), finishedAt));
    }

    /** Which attempt of dispatch {@code id} runs, and how the earlier ones ended; the first for an unknown id. */
    public Attempts attempts(String id) {
        return jdbc.one("SELECT attempt, earlier_attempts FROM dispatches WHERE id = ?", this::attempts, id)
                .orElse(Attempts.FIRST);
    }

    private Attempts attempts(Jdbc.Row row) {
        String earlier = row.string("earlier_attempts");
        return new Attempts((int) row.number("attempt"), earlier == null ? List.of() : json.read(earlier, EARLIER));
    }

    /**
     * Closes the unfinished dispatches of workers whose lease lapsed before
     * {@code now} (or that never held one), but for queued ones that any
     * worker may run, each with the result {@code close} makes, in one
     * transaction; one whose request allows another attempt goes back to the
     * queue instead, with the next attempt number, its last attempt ended by
     * {@code lostError} (ADR 0066). Rows are locked
     * with {@code FOR UPDATE SKIP LOCKED}, so live replicas sweeping at once
     * share the work.
     */
    public Swept closeLost(
            String me,
            Instant now,
            int limit,
            Outbox outbox,
            DispatchResult.Error lostError,
            Function<Lost, Closing> close) {
        // A queued dispatch any worker may run is not lost with its worker: it waits in the queue (ADR 0063).
        String select = "SELECT d.id, d.spec, d.started_at, d.worker_id, d.container_id, d.attempt, "
                + "d.earlier_attempts, d.pinned_to, d.cancel_requested FROM dispatches d WHERE d.status NOT IN "
                + TERMINAL
                + " AND NOT (d.status = 'queued' AND d.pinned_to IS NULL)"
                + " AND d.worker_id <> ? AND NOT EXISTS (SELECT 1 FROM workers w WHERE w.id = d.worker_id "
                + "AND w.lease_until >= ?) ORDER BY d.seq LIMIT ? FOR UPDATE SKIP LOCKED";
        String update = "UPDATE dispatches SET status = ?, " + BODY_COLUMNS
                + ", summary = ?, digest = ?, finished_at = ? " + "WHERE id = ? AND status NOT IN " + TERMINAL;
        String again = "UPDATE dispatches SET status = 'queued', attempt = ?, earlier_attempts = ?, claimed_by = NULL, "
                + "container_id = NULL, started_at = NULL WHERE id = ? AND status NOT IN " + TERMINAL;
        List<ResultBodies.Put> written = new ArrayList<>();
        List<ResultBodies.Put> named = new ArrayList<>();
        Swept swept;
        try {
            swept = jdbc.transaction("close dispatches of lost workers", tx -> {
                List<Lost> lost = tx.query(
                        select,
                        row -> new Lost(
                                row.string("id"),
                                json.read(row.string("spec"), DispatchSpec.class),
                                row.instant("started_at"),
                                row.string("worker_id"),
                                row.string("container_id"),
                                attempts(row),
                                row.string("pinned_to") == null,
                                row.bool("cancel_requested")),
                        me,
                        now,
                        limit);
                List<DispatchResult> closed = new ArrayList<>();
                List<Retried> retried = new ArrayList<>();
                for (Lost l : lost) {
                    if (l.triedAgain()) {
                        Attempts next = l.attempts()
                                .next(new DispatchResult.EarlierAttempt(
                                        l.attempts().attempt(), l.workerId(), l.startedAt(), now, lostError));
                        if (tx.update(again, next.attempt(), json.write(next.earlier()), l.id()) > 0) {
                            retried.add(new Retried(l.id(), next.attempt(), l.workerId(), l.containerId()));
                        }
                        continue;
                    }
                    Closing closing = close.apply(l);
                    DispatchResult r = closing.result();
                    ResultBodies.Put body = bodies.put(l.id(), out -> json.write(r, out));
                    written.add(body);
                    if (tx.update(
                                    update,
                                    r.status().wire(),
                                    body.inRow(),
                                    body.file(),
                                    body.size(),
                                    json.write(closing.summary()),
                                    closing.digestText(),
                                    r.finishedAt(),
                                    l.id())
                            > 0) {
                        enqueue(tx, outbox, l.id(), r.finishedAt());
                        closed.add(r);
                        named.add(body);
                    }
                }
                return new Swept(closed, retried);
            });
        } catch (RuntimeException e) {
            named.clear(); // rolled back: no row names any of them
            throw e;
        } finally {
            written.stream().filter(b -> !named.contains(b)).forEach(bodies::discard);
        }
        swept.retried().forEach(r -> changed.accept(new DispatchStateChanged(r.id(), Dispatch.Status.QUEUED)));
        return swept;
    }
}
