package dev.sluice.callback;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.sluice.record.Outbox;
import dev.sluice.store.Jdbc;
import dev.sluice.store.StoredBody;

/**
 * The callback outbox, in the dispatch store (ADR 0050). A row is written in
 * the same transaction as what it delivers; claims lock rows with
 * {@code FOR UPDATE SKIP LOCKED} and hold them for a lease, so any live worker
 * can deliver any row and two never send the same one at once. A row is either
 * a dispatch's result, whose body is the stored result, or a stored message (a
 * group's batch or final callback, ADR 0028), whose body is in the row.
 */
public class CallbackStore implements Outbox {

    private static final String MSG = "msg_";

    /** The webhook-id of a dispatch's result: stable across attempts, rounds and restarts. */
    static String webhookId(String dispatchId) {
        return MSG + dispatchId;
    }

    /**
     * A claimed delivery: its row, the dispatch whose stored result it sends
     * ({@code null} for a stored message), and the tenant whose message it is:
     * whose secrets sign it (ADR 0074) and whose share of the senders it takes
     * (ADR 0073), as the row records it (V15).
     */
    record Due(long id, String dispatchId, String webhookId, String url, int roundAttempts, String tenant) {

        /** What its log lines are about: the dispatch, or the message. */
        String subject() {
            return dispatchId != null ? dispatchId : webhookId;
        }
    }

    /** What one attempt did to a delivery. */
    record Outcome(
            DeliveryState state, Instant nextAttemptAt, Integer status, String error, Instant at, long durationMs) {}

    /** One attempt, as the record shows it. */
    @Schema(name = "DeliveryAttempt", description = "One attempt to deliver a result.")
    public record AttemptView(
            @Schema(required = true, description = "the attempt's number over all rounds")
            int attempt,

            @Schema(required = true, description = "when its outcome was recorded")
            Instant at,

            @Schema(required = true, nullable = true, description = "its HTTP status; null when it got no answer")
            Integer status,

            @Schema(required = true, nullable = true, description = "why it got no HTTP answer")
            String error,

            @Schema(required = true, description = "how long it took")
            long durationMs) {}

    /** Delivery state of a dispatch's result, as the record shows it. */
    public record State(
            DeliveryState state,
            int attempts,
            Integer lastStatus,
            String lastError,
            Instant nextAttemptAt,
            Instant deliveredAt,
            List<AttemptView> history) {}

    private static final int HISTORY_SHOWN = 20;

    private final Jdbc jdbc;
    private final Supplier<Instant> firstAttempt;

    /**
     * @param firstAttempt when a new delivery's first attempt is due (now, plus the schedule's first delay)
     */
    public CallbackStore(Jdbc jdbc, Supplier<Instant> firstAttempt) {
        this.jdbc = jdbc;
        this.firstAttempt = firstAttempt;
    }

    /** Queues the delivery of a result that was just stored, to its dispatch's callback URL. */
    @Override
    public void enqueue(Jdbc.Tx tx, String dispatchId, String tenant, String callbackUrl, Instant finishedAt) {
        tx.update(
                "INSERT INTO callback_outbox (dispatch_id, tenant, webhook_id, url, state, next_attempt_at, created_at) "
                        + "VALUES (?, ?, ?, ?, 'pending', ?, ?)",
                dispatchId,
                tenant,
                webhookId(dispatchId),
                callbackUrl,
                firstAttempt.get(),
                finishedAt);
    }

    /**
     * Queues a stored message of {@code tenant} for {@code url}, in the
     * transaction that decided to send it; its first attempt is due as a
     * result's would be.
     */
    public void enqueueMessage(Jdbc.Tx tx, String tenant, String webhookId, String url, byte[] body, Instant at) {
        tx.update(
                "INSERT INTO callback_outbox (tenant, webhook_id, url, body, state, next_attempt_at, created_at) "
                        + "VALUES (?, ?, ?, ?, 'pending', ?, ?)",
                tenant,
                webhookId,
                url,
                body,
                firstAttempt.get(),
                at);
    }

    /**
     * Deletes the stored messages that were delivered or given up before
     * {@code before}, with their attempts: kept as long as dispatch records
     * are. Pending ones stay, however old. A result's delivery goes with its
     * dispatch's record. Returns how many it deleted.
     */
    public int reapMessages(Instant before) {
        return jdbc.update(
                "DELETE FROM callback_outbox WHERE dispatch_id IS NULL AND state IN ('delivered', 'dead') "
                        + "AND COALESCE(delivered_at, last_attempt_at, created_at) < ?",
                before);
    }

    /** The body of a stored message; empty when it is gone. */
    Optional<StoredBody> messageBody(long id) {
        return jdbc.one("SELECT body FROM callback_outbox WHERE id = ?", row -> StoredBody.of(row.bytes("body")), id);
    }

    /** Claims up to {@code limit} due deliveries for {@code worker} until {@code leaseUntil}, whoever's they are. */
    List<Due> claim(Instant now, int limit, String worker, Instant leaseUntil) {
        return claim(now, limit, tenant -> limit, worker, leaseUntil);
    }

    /**
     * Claims up to {@code limit} due deliveries for {@code worker} until
     * {@code leaseUntil}, at most {@code room} of each tenant's (ADR 0073):
     * tenant by tenant, the tenant whose delivery has been due longest first,
     * and within a tenant the longest due first. However many of one tenant's
     * are due, they never stand before another tenant's in the claim.
     */
    List<Due> claim(Instant now, int limit, ToLongFunction<String> room, String worker, Instant leaseUntil) {
        return jdbc.transaction("claim callbacks", tx -> {
            List<String> tenants = tx.query(
                    "SELECT tenant, MIN(next_attempt_at) FROM callback_outbox WHERE state = 'pending' "
                            + "AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until < ?) "
                            + "GROUP BY tenant ORDER BY MIN(next_attempt_at), tenant",
                    row -> row.string(1),
                    now,
                    now);
            List<Due> due = new ArrayList<>();
            for (String tenant : tenants) {
                long take = Math.min(room.applyAsLong(tenant), limit - due.size());
                if (take <= 0) {
                    continue;
                }
                due.addAll(tx.query(
                        "SELECT id, dispatch_id, webhook_id, url, round_attempts, tenant FROM callback_outbox "
                                + "WHERE state = 'pending' AND tenant = ? AND next_attempt_at <= ? "
                                + "AND (claimed_until IS NULL OR claimed_until < ?) "
                                + "ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED",
                        row -> new Due(
                                row.number(1),
                                row.string(2),
                                row.string(3),
                                row.string(4),
                                (int) row.number(5),
                                row.string(6)),
                        tenant,
                        now,
                        now,
                        take));
            }
            tx.batch(
                    "UPDATE callback_outbox SET claimed_by = ?, claimed_until = ? WHERE id = ?",
                    due.stream()
                            .map(d -> new Object[] {worker, leaseUntil, d.id()})
                            .toList());
            return due;
        });
    }

    /** Records an attempt and releases the claim; ignored if the claim was lost meanwhile. */
    void record(Due due, String worker, Outcome outcome) {
        String error = truncate(outcome.error());
        String state = outcome.state().wire();
        jdbc.transaction("record callback attempt", tx -> {
            int updated = tx.update(
                    "UPDATE callback_outbox SET attempts = attempts + 1, round_attempts = round_attempts + 1, "
                            + "state = ?, next_attempt_at = ?, last_attempt_at = ?, last_status = ?, last_error = ?, "
                            + "delivered_at = CASE WHEN ? = 'delivered' THEN ? ELSE delivered_at END, "
                            + "claimed_by = NULL, claimed_until = NULL WHERE id = ? AND claimed_by = ?",
                    state,
                    outcome.nextAttemptAt(),
                    outcome.at(),
                    outcome.status(),
                    error,
                    state,
                    outcome.at(),
                    due.id(),
                    worker);
            if (updated == 0) {
                return false;
            }
            tx.update(
                    "INSERT INTO callback_outbox_attempts (delivery_id, attempt, at, status, error, duration_ms) "
                            + "SELECT id, attempts, ?, ?, ?, ? FROM callback_outbox WHERE id = ?",
                    outcome.at(),
                    outcome.status(),
                    error,
                    outcome.durationMs(),
                    due.id());
            return true;
        });
    }

    /**
     * Deliveries waiting for an attempt, in the whole outbox (every worker's),
     * counted by a query the database cancels after {@code timeout}.
     */
    public long pending(Duration timeout) {
        return jdbc.bounded(timeout)
                .one("SELECT COUNT(*) FROM callback_outbox WHERE state = 'pending'", row -> row.number(1))
                .orElse(0L);
    }

    /** Gives a claim back without an attempt (the receiving host was busy). */
    void release(Due due, String worker) {
        jdbc.update(
                "UPDATE callback_outbox SET claimed_by = NULL, claimed_until = NULL WHERE id = ? AND claimed_by = ?",
                due.id(),
                worker);
    }

    /**
     * Gives back every claim {@code worker} holds, at its start: they were its
     * previous life's, whose attempts died with it, and would otherwise wait out
     * their lease before anyone sent them again. Returns how many.
     */
    int releaseAll(String worker) {
        return jdbc.update(
                "UPDATE callback_outbox SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ?", worker);
    }

    /** Starts a new round of attempts now, whatever the state; false when there is no delivery to restart. */
    boolean redeliver(String dispatchId, Instant now) {
        return jdbc.update(
                        "UPDATE callback_outbox SET state = 'pending', round_attempts = 0, next_attempt_at = ?, "
                                + "claimed_by = NULL, claimed_until = NULL WHERE dispatch_id = ?",
                        now,
                        dispatchId)
                > 0;
    }

    /** The delivery state of one dispatch's result, with its latest attempts. */
    Optional<State> state(String dispatchId) {
        return Optional.ofNullable(states(List.of(dispatchId)).get(dispatchId))
                .map(s -> new State(
                        s.state(),
                        s.attempts(),
                        s.lastStatus(),
                        s.lastError(),
                        s.nextAttemptAt(),
                        s.deliveredAt(),
                        history(dispatchId)));
    }

    /** The delivery states of several dispatches at once (a listing page), without their attempts. */
    Map<String, State> states(Collection<String> dispatchIds) {
        Map<String, State> states = new HashMap<>();
        if (dispatchIds.isEmpty()) {
            return states;
        }
        jdbc.query(
                        "SELECT dispatch_id, state, attempts, last_status, last_error, next_attempt_at, delivered_at "
                                + "FROM callback_outbox WHERE dispatch_id IN (" + Jdbc.marks(dispatchIds.size()) + ")",
                        row -> Map.entry(
                                row.string("dispatch_id"),
                                new State(
                                        DeliveryState.fromWire(row.string("state")),
                                        (int) row.number("attempts"),
                                        row.integer("last_status"),
                                        row.string("last_error"),
                                        row.instant("next_attempt_at"),
                                        row.instant("delivered_at"),
                                        List.of())),
                        dispatchIds.toArray())
                .forEach(e -> states.put(e.getKey(), e.getValue()));
        return states;
    }

    private List<AttemptView> history(String dispatchId) {
        List<AttemptView> attempts = new ArrayList<>(jdbc.query(
                "SELECT a.attempt, a.at, a.status, a.error, a.duration_ms FROM callback_outbox_attempts a "
                        + "JOIN callback_outbox o ON o.id = a.delivery_id WHERE o.dispatch_id = ? "
                        + "ORDER BY a.attempt DESC LIMIT " + HISTORY_SHOWN,
                row -> new AttemptView(
                        (int) row.number("attempt"),
                        row.instant("at"),
                        row.integer("status"),
                        row.string("error"),
                        row.number("duration_ms")),
                dispatchId));
        Collections.reverse(attempts);
        return attempts;
    }

    private static String truncate(String error) {
        return error == null || error.length() <= 300 ? error : error.substring(0, 297) + "...";
    }
}
