package dev.sluice.callback;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import javax.sql.DataSource;

import dev.sluice.dispatch.DispatchStore;
import dev.sluice.dispatch.Jdbc;
import dev.sluice.dispatch.StoreException;

/**
 * The callback outbox, in the dispatch store. A row is written in the same
 * transaction as the result it delivers; claims lock rows with
 * {@code FOR UPDATE SKIP LOCKED} and hold them for a lease, so any live worker
 * can deliver any row and two never send the same one at once.
 */
public class CallbackStore implements DispatchStore.FinishHook {

    /** The webhook-id of a dispatch's result: stable across attempts, rounds and restarts. */
    static String webhookId(String dispatchId) {
        return "msg_" + dispatchId;
    }

    /** A claimed delivery. */
    record Due(String dispatchId, String webhookId, String url, int roundAttempts) {
    }

    /** What one attempt did to a delivery. */
    record Outcome(String state, Instant nextAttemptAt, Integer status, String error, Instant at, long durationMs) {
    }

    /** One attempt, as the record shows it. */
    public record AttemptView(int attempt, Instant at, Integer status, String error, long durationMs) {
    }

    /** Delivery state of a dispatch's result, as the record shows it. */
    public record State(String state, int attempts, Integer lastStatus, String lastError, Instant nextAttemptAt,
            Instant deliveredAt, List<AttemptView> history) {
    }

    private static final int HISTORY_SHOWN = 20;

    private final DataSource dataSource;
    private final Supplier<Instant> firstAttempt;

    /**
     * @param firstAttempt when a new delivery's first attempt is due (now, plus the schedule's first delay)
     */
    public CallbackStore(DataSource dataSource, Supplier<Instant> firstAttempt) {
        this.dataSource = dataSource;
        this.firstAttempt = firstAttempt;
    }

    /** Queues the delivery of a result that was just stored, if its dispatch has a callback URL. */
    @Override
    public void finished(Connection c, String dispatchId, Instant finishedAt) throws SQLException {
        String sql = "INSERT INTO callbacks (dispatch_id, webhook_id, url, state, next_attempt_at, created_at) "
                + "SELECT id, ?, callback_url, 'pending', ?, ? FROM dispatches WHERE id = ? AND callback_url IS NOT NULL";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            Jdbc.bind(ps, webhookId(dispatchId), firstAttempt.get(), finishedAt, dispatchId);
            ps.executeUpdate();
        }
    }

    /** Claims up to {@code limit} due deliveries for {@code worker} until {@code leaseUntil}. */
    List<Due> claim(Instant now, int limit, String worker, Instant leaseUntil) {
        String select = "SELECT dispatch_id, webhook_id, url, round_attempts FROM callbacks WHERE state = 'pending' "
                + "AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until < ?) "
                + "ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED";
        return Jdbc.transaction(dataSource, "claim callbacks", c -> {
            List<Due> due = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(select)) {
                Jdbc.bind(ps, now, now, limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        due.add(new Due(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4)));
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE callbacks SET claimed_by = ?, claimed_until = ? WHERE dispatch_id = ?")) {
                for (Due d : due) {
                    Jdbc.bind(ps, worker, leaseUntil, d.dispatchId());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            return due;
        });
    }

    /** Records an attempt and releases the claim; ignored if the claim was lost meanwhile. */
    void record(Due due, String worker, Outcome outcome) {
        String update = "UPDATE callbacks SET attempts = attempts + 1, round_attempts = round_attempts + 1, state = ?, "
                + "next_attempt_at = ?, last_attempt_at = ?, last_status = ?, last_error = ?, "
                + "delivered_at = CASE WHEN ? = 'delivered' THEN ? ELSE delivered_at END, "
                + "claimed_by = NULL, claimed_until = NULL WHERE dispatch_id = ? AND claimed_by = ?";
        String history = "INSERT INTO callback_attempts (dispatch_id, attempt, at, status, error, duration_ms) "
                + "SELECT dispatch_id, attempts, ?, ?, ?, ? FROM callbacks WHERE dispatch_id = ?";
        String error = truncate(outcome.error());
        Jdbc.transaction(dataSource, "record callback attempt", c -> {
            try (PreparedStatement ps = c.prepareStatement(update)) {
                Jdbc.bind(ps, outcome.state(), outcome.nextAttemptAt(), outcome.at(), outcome.status(), error,
                        outcome.state(), outcome.at(), due.dispatchId(), worker);
                if (ps.executeUpdate() == 0) {
                    return false;
                }
            }
            try (PreparedStatement h = c.prepareStatement(history)) {
                Jdbc.bind(h, outcome.at(), outcome.status(), error, outcome.durationMs(), due.dispatchId());
                h.executeUpdate();
            }
            return true;
        });
    }

    /** Gives a claim back without an attempt (the receiving host was busy). */
    void release(String dispatchId, String worker) {
        update("UPDATE callbacks SET claimed_by = NULL, claimed_until = NULL WHERE dispatch_id = ? AND claimed_by = ?",
                dispatchId, worker);
    }

    /** Starts a new round of attempts now, whatever the state; false when there is no delivery to restart. */
    boolean redeliver(String dispatchId, Instant now) {
        return update("UPDATE callbacks SET state = 'pending', round_attempts = 0, next_attempt_at = ?, "
                + "claimed_by = NULL, claimed_until = NULL WHERE dispatch_id = ?", now, dispatchId);
    }

    Optional<State> state(String dispatchId) {
        return Optional.ofNullable(states(List.of(dispatchId)).get(dispatchId));
    }

    /** The delivery states of several dispatches at once (a listing page). */
    Map<String, State> states(Collection<String> dispatchIds) {
        Map<String, State> states = new HashMap<>();
        if (dispatchIds.isEmpty()) {
            return states;
        }
        String marks = String.join(",", java.util.Collections.nCopies(dispatchIds.size(), "?"));
        String sql = "SELECT dispatch_id, state, attempts, last_status, last_error, next_attempt_at, delivered_at "
                + "FROM callbacks WHERE dispatch_id IN (" + marks + ")";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            int i = 1;
            for (String id : dispatchIds) {
                ps.setString(i++, id);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String id = rs.getString(1);
                    states.put(id, new State(rs.getString(2), rs.getInt(3), (Integer) rs.getObject(4), rs.getString(5),
                            Jdbc.instant(rs, 6), Jdbc.instant(rs, 7), dispatchIds.size() == 1 ? history(c, id) : List.of()));
                }
            }
            return states;
        } catch (SQLException e) {
            throw new StoreException("read callback state", e);
        }
    }

    private static List<AttemptView> history(Connection c, String dispatchId) throws SQLException {
        String sql = "SELECT attempt, at, status, error, duration_ms FROM callback_attempts WHERE dispatch_id = ? "
                + "ORDER BY attempt DESC LIMIT " + HISTORY_SHOWN;
        List<AttemptView> attempts = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, dispatchId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    attempts.add(0, new AttemptView(rs.getInt(1), Jdbc.instant(rs, 2), (Integer) rs.getObject(3),
                            rs.getString(4), rs.getLong(5)));
                }
            }
        }
        return attempts;
    }

    private boolean update(String sql, Object... args) {
        return Jdbc.update(dataSource, "update callback", sql, args) > 0;
    }

    private static String truncate(String error) {
        return error == null || error.length() <= 300 ? error : error.substring(0, 297) + "...";
    }

}
