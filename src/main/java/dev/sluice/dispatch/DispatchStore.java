package dev.sluice.dispatch;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import javax.sql.DataSource;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Dispatch records in the relational store (H2 or PostgreSQL, one schema).
 * Every state change is a conditional update on the current status, so a
 * terminal state is never overwritten and two writers cannot both win.
 */
public class DispatchStore {

    /** SQLSTATE of a unique-key violation, the same on H2 and PostgreSQL. */
    private static final String UNIQUE_VIOLATION = "23505";

    private static final String RECORD_COLUMNS = "id, status, image, created_at, started_at, finished_at, metadata, "
            + "callback_url, summary, worker_id, container_id, has_secrets, fingerprint";

    private static final String TERMINAL = "('succeeded', 'failed', 'timed_out', 'cancelled', 'error')";

    private final DataSource dataSource;
    private final ObjectMapper json;
    private final FinishHook onFinish;

    /**
     * Work that must be committed with a result, or not at all: the callback
     * outbox row. It runs on the same connection, inside the transaction that
     * stores the result.
     */
    public interface FinishHook {
        void finished(Connection connection, String dispatchId, Instant finishedAt) throws SQLException;
    }

    public DispatchStore(DataSource dataSource, ObjectMapper json, FinishHook onFinish) {
        this.dataSource = dataSource;
        this.json = json;
        this.onFinish = onFinish;
    }

    /** A dispatch to record as queued. */
    public record NewDispatch(String id, DispatchSpec spec, String fingerprint, String workerId, Instant createdAt) {
    }

    /** One page of a listing, newest first; {@code nextAfter} is the cursor for the next page, or null. */
    public record Page(List<Dispatch> items, String nextAfter) {
    }

    /** Records a new queued dispatch; false when the id is already taken. */
    public boolean insert(NewDispatch d) {
        String sql = "INSERT INTO dispatches (id, status, image, fingerprint, spec, has_secrets, worker_id, created_at, "
                + "callback_url, metadata) VALUES (?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?)";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, d.id());
            ps.setString(2, d.spec().image());
            ps.setString(3, d.fingerprint());
            ps.setString(4, write(d.spec()));
            ps.setBoolean(5, d.spec().hasSecrets());
            ps.setString(6, d.workerId());
            ps.setObject(7, Jdbc.utc(d.createdAt()));
            ps.setString(8, d.spec().callbackUrl());
            ps.setString(9, d.spec().metadata() == null ? null : write(d.spec().metadata()));
            ps.executeUpdate();
            return true;
        } catch (SQLException e) {
            if (UNIQUE_VIOLATION.equals(e.getSQLState())) {
                return false;
            }
            throw new StoreException("insert dispatch", e);
        }
    }

    public Optional<Dispatch> find(String id) {
        String sql = "SELECT " + RECORD_COLUMNS + ", result FROM dispatches WHERE id = ?";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(map(rs, true)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new StoreException("read dispatch", e);
        }
    }

    /** The validated request of a dispatch, without secret values. */
    public Optional<DispatchSpec> spec(String id) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT spec FROM dispatches WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(read(rs.getString(1), DispatchSpec.class)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new StoreException("read dispatch spec", e);
        }
    }

    /**
     * Newest first. {@code afterId} continues after that dispatch; an unknown
     * cursor gives an {@link IllegalArgumentException}.
     */
    public Page list(Dispatch.Status status, int limit, String afterId) {
        StringBuilder sql = new StringBuilder("SELECT " + RECORD_COLUMNS + " FROM dispatches WHERE 1 = 1");
        List<Object> args = new ArrayList<>();
        if (status != null) {
            sql.append(" AND status = ?");
            args.add(status.wire());
        }
        if (afterId != null) {
            sql.append(" AND seq < ?");
            args.add(seqOf(afterId).orElseThrow(() -> new IllegalArgumentException("unknown cursor")));
        }
        sql.append(" ORDER BY seq DESC LIMIT ?");
        args.add(limit + 1);
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql.toString())) {
            for (int i = 0; i < args.size(); i++) {
                ps.setObject(i + 1, args.get(i));
            }
            List<Dispatch> items = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    items.add(map(rs, false));
                }
            }
            if (items.size() <= limit) {
                return new Page(items, null);
            }
            List<Dispatch> page = items.subList(0, limit);
            return new Page(List.copyOf(page), page.get(limit - 1).id());
        } catch (SQLException e) {
            throw new StoreException("list dispatches", e);
        }
    }

    private Optional<Long> seqOf(String id) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT seq FROM dispatches WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getLong(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new StoreException("read cursor", e);
        }
    }

    /** queued → starting; false when the dispatch is no longer queued (cancelled meanwhile). */
    public boolean markStarting(String id) {
        return update("UPDATE dispatches SET status = 'starting' WHERE id = ? AND status = 'queued'", id);
    }

    /** starting → queued, when the engine could not be reached before anything was created. */
    public boolean markQueuedAgain(String id) {
        return update("UPDATE dispatches SET status = 'queued' WHERE id = ? AND status = 'starting'", id);
    }

    public void recordContainer(String id, String containerId) {
        update("UPDATE dispatches SET container_id = ? WHERE id = ?", containerId, id);
    }

    /** starting → running; also fills in a start time that a crash kept from being stored. */
    public boolean markRunning(String id, Instant startedAt) {
        return update("UPDATE dispatches SET status = 'running', started_at = ? WHERE id = ? AND status = 'starting'",
                startedAt, id);
    }

    /**
     * Any non-terminal state → the result's terminal state, with the finish hook
     * in the same transaction; false when already terminal.
     */
    public boolean finish(DispatchResult result, DispatchSummary summary) {
        return finishWhere("status NOT IN " + TERMINAL, result, summary);
    }

    /** queued → the result's terminal state; false when the dispatch has left the queue meanwhile. */
    public boolean finishQueued(DispatchResult result, DispatchSummary summary) {
        return finishWhere("status = 'queued'", result, summary);
    }

    private boolean finishWhere(String condition, DispatchResult result, DispatchSummary summary) {
        String sql = "UPDATE dispatches SET status = ?, result = ?, summary = ?, finished_at = ?, "
                + "started_at = COALESCE(started_at, ?) WHERE id = ? AND " + condition;
        return Jdbc.transaction(dataSource, "store result", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                Jdbc.bind(ps, result.status().wire(), write(result), write(summary), result.finishedAt(),
                        result.startedAt(), result.dispatchId());
                if (ps.executeUpdate() == 0) {
                    return false;
                }
            }
            onFinish.finished(c, result.dispatchId(), result.finishedAt());
            return true;
        });
    }

    /** The stored result, exactly as it was written: the body of every callback attempt. */
    public Optional<String> resultText(String id) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT result FROM dispatches WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new StoreException("read result", e);
        }
    }

    /** Notes a cancellation for the runner to act on; false when the dispatch is terminal or unknown. */
    public boolean requestCancel(String id) {
        return update("UPDATE dispatches SET cancel_requested = TRUE WHERE id = ? AND status NOT IN " + TERMINAL, id);
    }

    /** A dispatch this worker has not finished, as reconciliation needs it. */
    public record Unfinished(String id, Dispatch.Status status, String containerId, boolean hasSecrets,
            boolean cancelRequested, Instant createdAt, Instant startedAt) {
    }

    /** This worker's dispatches that are not terminal, oldest first. */
    public List<Unfinished> unfinished(String workerId) {
        String sql = "SELECT id, status, container_id, has_secrets, cancel_requested, created_at, started_at "
                + "FROM dispatches WHERE worker_id = ? AND status NOT IN " + TERMINAL + " ORDER BY seq";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, workerId);
            List<Unfinished> found = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(new Unfinished(rs.getString("id"), Dispatch.Status.fromWire(rs.getString("status")),
                            rs.getString("container_id"), rs.getBoolean("has_secrets"),
                            rs.getBoolean("cancel_requested"), Jdbc.instant(rs, "created_at"),
                            Jdbc.instant(rs, "started_at")));
                }
            }
            return found;
        } catch (SQLException e) {
            throw new StoreException("find unfinished dispatches", e);
        }
    }

    /** A dispatch of a lost worker: what its closing result needs. */
    public record Lost(String id, String workerId, DispatchSpec spec, Instant startedAt) {
    }

    /**
     * Closes the unfinished dispatches of workers whose lease lapsed before
     * {@code now} (or that never held one), each with the result {@code close}
     * makes, in one transaction per batch. Rows are locked with
     * {@code FOR UPDATE SKIP LOCKED}, so live replicas sweeping at once share the work.
     */
    public List<String> closeLost(String me, Instant now, int limit, Function<Lost, Results.Finished> close) {
        String select = "SELECT d.id, d.worker_id, d.spec, d.started_at FROM dispatches d WHERE d.status NOT IN "
                + TERMINAL + " AND d.worker_id <> ? AND NOT EXISTS (SELECT 1 FROM workers w WHERE w.id = d.worker_id "
                + "AND w.lease_until >= ?) ORDER BY d.seq LIMIT ? FOR UPDATE SKIP LOCKED";
        String update = "UPDATE dispatches SET status = ?, result = ?, summary = ?, finished_at = ? WHERE id = ? "
                + "AND status NOT IN " + TERMINAL;
        return Jdbc.transaction(dataSource, "close dispatches of lost workers", c -> {
            List<Lost> lost = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(select)) {
                Jdbc.bind(ps, me, now, limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        lost.add(new Lost(rs.getString(1), rs.getString(2), read(rs.getString(3), DispatchSpec.class),
                                Jdbc.instant(rs, 4)));
                    }
                }
            }
            List<String> closed = new ArrayList<>();
            for (Lost l : lost) {
                Results.Finished finished = close.apply(l);
                try (PreparedStatement ps = c.prepareStatement(update)) {
                    Jdbc.bind(ps, finished.result().status().wire(), write(finished.result()), write(finished.summary()),
                            finished.result().finishedAt(), l.id());
                    if (ps.executeUpdate() > 0) {
                        onFinish.finished(c, l.id(), finished.result().finishedAt());
                        closed.add(l.id());
                    }
                }
            }
            return closed;
        });
    }

    /** A dispatch's status and, once terminal, when it finished. */
    public record Ending(Dispatch.Status status, Instant finishedAt) {
    }

    /** The endings of the given dispatches; ids without a record are absent. */
    public Map<String, Ending> endings(Collection<String> ids) {
        Map<String, Ending> endings = new HashMap<>();
        List<String> distinct = ids.stream().distinct().toList();
        for (int from = 0; from < distinct.size(); from += 500) {
            List<String> batch = distinct.subList(from, Math.min(distinct.size(), from + 500));
            String sql = "SELECT id, status, finished_at FROM dispatches WHERE id IN ("
                    + String.join(",", Collections.nCopies(batch.size(), "?")) + ")";
            try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
                Jdbc.bind(ps, batch.toArray());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        endings.put(rs.getString(1), new Ending(Dispatch.Status.fromWire(rs.getString(2)),
                                Jdbc.instant(rs, 3)));
                    }
                }
            } catch (SQLException e) {
                throw new StoreException("read dispatch endings", e);
            }
        }
        return endings;
    }

    /** Ids of dispatches that finished before {@code cutoff}, oldest first. */
    public List<String> finishedBefore(Instant cutoff, int limit) {
        String sql = "SELECT id FROM dispatches WHERE finished_at < ? ORDER BY finished_at LIMIT ?";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setObject(1, Jdbc.utc(cutoff));
            ps.setInt(2, limit);
            List<String> ids = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
            return ids;
        } catch (SQLException e) {
            throw new StoreException("find expired dispatches", e);
        }
    }

    /** Deletes a terminal dispatch; running ones are never deleted. */
    public boolean deleteFinished(String id) {
        return update("DELETE FROM dispatches WHERE id = ? AND status IN " + TERMINAL, id);
    }

    private boolean update(String sql, Object... args) {
        return Jdbc.update(dataSource, "update dispatch", sql, args) > 0;
    }

    private Dispatch map(ResultSet rs, boolean withResult) throws SQLException {
        String metadata = rs.getString("metadata");
        String summary = rs.getString("summary");
        String result = withResult ? rs.getString("result") : null;
        return new Dispatch(
                rs.getString("id"),
                Dispatch.Status.fromWire(rs.getString("status")),
                rs.getString("image"),
                Jdbc.instant(rs, "created_at"),
                Jdbc.instant(rs, "started_at"),
                Jdbc.instant(rs, "finished_at"),
                metadata == null ? null : read(metadata, new TypeReference<Map<String, Object>>() { }),
                rs.getString("callback_url"),
                result == null ? null : read(result, DispatchResult.class),
                summary == null ? null : read(summary, DispatchSummary.class),
                rs.getString("worker_id"),
                rs.getString("container_id"),
                rs.getBoolean("has_secrets"),
                rs.getString("fingerprint"));
    }


    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new StoreException("encode " + value.getClass().getSimpleName(), e);
        }
    }

    private <T> T read(String text, Class<T> type) {
        try {
            return json.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new StoreException("decode " + type.getSimpleName(), e);
        }
    }

    private <T> T read(String text, TypeReference<T> type) {
        try {
            return json.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new StoreException("decode stored JSON", e);
        }
    }
}
