package dev.sluice.record;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

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

    /** A dispatch of a lost worker: what its closing result needs. */
    public record Lost(String id, DispatchSpec spec, Instant startedAt) {}

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

    /** queued → starting; false when the dispatch is no longer queued (cancelled meanwhile). */
    public boolean markStarting(String id) {
        return announced(
                id,
                Dispatch.Status.STARTING,
                jdbc.update("UPDATE dispatches SET status = 'starting' WHERE id = ? AND status = 'queued'", id));
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
        String sql = "UPDATE dispatches SET status = ?, " + BODY_COLUMNS + ", summary = ?, digest = ?, "
                + "finished_at = ?, started_at = COALESCE(started_at, ?) WHERE id = ? AND " + from.condition;
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
                                result.dispatchId())
                        == 0) {
                    return false;
                }
                outbox.enqueue(tx, result.dispatchId(), result.finishedAt());
                return true;
            });
            return stored;
        } finally {
            if (!stored) {
                bodies.discard(body);
            }
        }
    }

    /**
     * Closes the unfinished dispatches of workers whose lease lapsed before
     * {@code now} (or that never held one), but for queued ones that any
     * worker may run, each with the result {@code close}
     * makes, in one transaction. Rows are locked with {@code FOR UPDATE SKIP
     * LOCKED}, so live replicas sweeping at once share the work.
     */
    public List<DispatchResult> closeLost(
            String me, Instant now, int limit, Outbox outbox, Function<Lost, Closing> close) {
        // A queued dispatch any worker may run is not lost with its worker: it waits in the queue (ADR 0063).
        String select = "SELECT d.id, d.spec, d.started_at FROM dispatches d WHERE d.status NOT IN " + TERMINAL
                + " AND NOT (d.status = 'queued' AND d.pinned_to IS NULL)"
                + " AND d.worker_id <> ? AND NOT EXISTS (SELECT 1 FROM workers w WHERE w.id = d.worker_id "
                + "AND w.lease_until >= ?) ORDER BY d.seq LIMIT ? FOR UPDATE SKIP LOCKED";
        String update = "UPDATE dispatches SET status = ?, " + BODY_COLUMNS
                + ", summary = ?, digest = ?, finished_at = ? " + "WHERE id = ? AND status NOT IN " + TERMINAL;
        List<ResultBodies.Put> written = new ArrayList<>();
        List<ResultBodies.Put> named = new ArrayList<>();
        try {
            return jdbc.transaction("close dispatches of lost workers", tx -> {
                List<Lost> lost = tx.query(
                        select,
                        row -> new Lost(row.string(1), json.read(row.string(2), DispatchSpec.class), row.instant(3)),
                        me,
                        now,
                        limit);
                List<DispatchResult> closed = new ArrayList<>();
                for (Lost l : lost) {
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
                        outbox.enqueue(tx, l.id(), r.finishedAt());
                        closed.add(r);
                        named.add(body);
                    }
                }
                return closed;
            });
        } catch (RuntimeException e) {
            named.clear(); // rolled back: no row names any of them
            throw e;
        } finally {
            written.stream().filter(b -> !named.contains(b)).forEach(bodies::discard);
        }
    }
}
