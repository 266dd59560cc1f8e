package dev.sluice.callback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import org.flywaydb.core.api.configuration.FluentConfiguration;

import dev.sluice.store.Jdbc;
import dev.sluice.store.StoreException;

/**
 * The move of V8 (ADR 0050), on whichever database a test gives it: a V7
 * store holding deliveries in every state in both old tables (due, claimed,
 * in a redelivered round, delivered, dead, with their attempts), migrated to
 * the one outbox, where every column and attempt must arrive as it was and
 * the outbox must go on working from there.
 */
final class OutboxMigration {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");

    private OutboxMigration() {}

    record Attempt(int attempt, Instant at, Integer status, String error, long durationMs) {}

    /** A delivery as both schemas hold it; {@code body} in base64, null for a dispatch's result. */
    record Delivery(
            String dispatchId,
            String webhookId,
            String url,
            String body,
            String state,
            int attempts,
            int roundAttempts,
            Instant nextAttemptAt,
            Instant lastAttemptAt,
            Integer lastStatus,
            String lastError,
            Instant deliveredAt,
            String claimedBy,
            Instant claimedUntil,
            Instant createdAt,
            List<Attempt> history) {

        /** After {@code history}, all in this round: due at {@code next}, or delivered by the last attempt. */
        Delivery tried(Instant next, List<Attempt> history) {
            Attempt last = history.get(history.size() - 1);
            boolean delivered = next == null;
            return new Delivery(
                    dispatchId,
                    webhookId,
                    url,
                    body,
                    delivered ? "delivered" : "pending",
                    history.size(),
                    history.size(),
                    next,
                    last.at(),
                    last.status(),
                    last.error(),
                    delivered ? last.at() : null,
                    claimedBy,
                    claimedUntil,
                    createdAt,
                    history);
        }

        /** Dead-lettered after its last attempt, for this reason. */
        Delivery gaveUp(String reason) {
            return new Delivery(
                    dispatchId,
                    webhookId,
                    url,
                    body,
                    "dead",
                    attempts,
                    roundAttempts,
                    null,
                    lastAttemptAt,
                    lastStatus,
                    reason,
                    null,
                    claimedBy,
                    claimedUntil,
                    createdAt,
                    history);
        }

        /** Redelivered after it was delivered at {@code deliveredAt}: this round has made {@code round} attempts. */
        Delivery redelivered(Instant deliveredAt, int round) {
            return new Delivery(
                    dispatchId,
                    webhookId,
                    url,
                    body,
                    state,
                    attempts,
                    round,
                    nextAttemptAt,
                    lastAttemptAt,
                    lastStatus,
                    lastError,
                    deliveredAt,
                    claimedBy,
                    claimedUntil,
                    createdAt,
                    history);
        }

        Delivery claimed(String worker, Instant until) {
            return new Delivery(
                    dispatchId,
                    webhookId,
                    url,
                    body,
                    state,
                    attempts,
                    roundAttempts,
                    nextAttemptAt,
                    lastAttemptAt,
                    lastStatus,
                    lastError,
                    deliveredAt,
                    worker,
                    until,
                    createdAt,
                    history);
        }
    }

    /** A dispatch's result, due at T0 and never tried. */
    private static Delivery result(String dispatchId, String url) {
        return new Delivery(
                dispatchId,
                "msg_" + dispatchId,
                url,
                null,
                "pending",
                0,
                0,
                T0,
                null,
                null,
                null,
                null,
                null,
                null,
                T0,
                List.of());
    }

    /** A stored message, due at T0 and never tried. */
    private static Delivery message(String webhookId, String url, byte[] body) {
        return new Delivery(
                null,
                webhookId,
                url,
                base64(body),
                "pending",
                0,
                0,
                T0,
                null,
                null,
                null,
                null,
                null,
                null,
                T0,
                List.of());
    }

    private static Attempt attempt(int n, Integer status, String error) {
        return new Attempt(n, T0.plusSeconds(10L * n), status, error, 100L + n);
    }

    private static List<Attempt> attempts(int count, Integer status, String error) {
        return IntStream.rangeClosed(1, count)
                .mapToObj(n -> attempt(n, status, error))
                .toList();
    }

    private static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static final String TIMEOUT = "no complete answer within the attempt timeout";
    private static final byte[] BINARY = {0, 1, (byte) 0xff, '{', '}'};

    /** What the V7 store holds, every state in both tables. */
    static final List<Delivery> SEEDED = List.of(
            result("d-due", "https://a.example/hook"),
            result("d-claimed", "https://a.example/hook?token=x")
                    .tried(T0.plusSeconds(40), attempts(2, 503, null))
                    .claimed("worker-1", T0.plusSeconds(600)),
            result("d-again", "https://b.example/hook")
                    .tried(
                            T0.plusSeconds(45),
                            List.of(attempt(1, 200, null), attempt(2, null, TIMEOUT), attempt(3, null, TIMEOUT)))
                    .redelivered(T0.plusSeconds(10), 2),
            result("d-delivered", "https://b.example/hook").tried(null, attempts(1, 204, null)),
            // More attempts than a record shows (20): the whole history moves.
            result("d-dead", "https://c.example/hook")
                    .tried(T0.plusSeconds(230), attempts(22, 500, null))
                    .gaveUp("no 2xx answer within the retry schedule"),
            // A dispatch named after a group's final callback: the same webhook-id as the message below.
            result("g_final", "https://d.example/hook").tried(null, attempts(1, 200, null)),
            message("msg_g_b1", "https://parent.example/groups", BINARY)
                    .tried(T0.plusSeconds(50), attempts(1, null, "connection refused"))
                    .claimed("worker-2", T0.plusSeconds(600)),
            message("msg_g_final", "https://parent.example/groups", utf8("{\"final\":true}"))
                    .tried(T0.plusSeconds(60), List.of(attempt(1, 502, null), attempt(2, 410, null)))
                    .gaveUp("receiver answered 410 Gone"),
            message("msg_h_b1", "https://parent.example/other", utf8("{\"batch\":1}"))
                    .tried(null, attempts(1, 200, null)));

    /**
     * Migrates an empty database to V7, seeds it, migrates it to the latest
     * version, and checks what arrived; {@code flyway} says where the
     * database is, {@code data} reaches the same place.
     */
    static void assertMovesIntact(FluentConfiguration flyway, DataSource data) {
        flyway.target("7").load().migrate();
        Jdbc jdbc = new Jdbc(data);
        seed(jdbc);

        flyway.target("latest").load().migrate();

        assertThat(moved(jdbc)).containsExactlyInAnyOrderElementsOf(SEEDED);
        for (String gone :
                List.of("callbacks", "callback_attempts", "callback_messages", "callback_message_attempts")) {
            assertThatThrownBy(() -> jdbc.query("SELECT COUNT(*) FROM " + gone, row -> row.number(1)))
                    .as(gone)
                    .isInstanceOf(StoreException.class);
        }
        assertTheOutboxGoesOn(jdbc);
    }

    /** The columns both old tables have; the key or body follows them. */
    private static final String COLUMNS = "webhook_id, url, state, attempts, round_attempts, next_attempt_at, "
            + "last_attempt_at, last_status, last_error, delivered_at, claimed_by, claimed_until, created_at";

    private static void seed(Jdbc jdbc) {
        for (Delivery d : SEEDED) {
            if (d.dispatchId() != null) {
                jdbc.update(
                        "INSERT INTO dispatches (id, status, image, fingerprint, spec, has_secrets, worker_id, "
                                + "created_at, callback_url) VALUES (?, 'succeeded', 'img:1', 'fp', '{}', FALSE, "
                                + "'worker-1', ?, ?)",
                        d.dispatchId(),
                        d.createdAt(),
                        d.url());
            }
            Object[] row = {
                d.webhookId(),
                d.url(),
                d.state(),
                d.attempts(),
                d.roundAttempts(),
                d.nextAttemptAt(),
                d.lastAttemptAt(),
                d.lastStatus(),
                d.lastError(),
                d.deliveredAt(),
                d.claimedBy(),
                d.claimedUntil(),
                d.createdAt(),
                d.dispatchId() != null ? d.dispatchId() : Base64.getDecoder().decode(d.body())
            };
            jdbc.update(
                    (d.dispatchId() != null
                                    ? "INSERT INTO callbacks (" + COLUMNS + ", dispatch_id)"
                                    : "INSERT INTO callback_messages (" + COLUMNS + ", body)")
                            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    row);
            String attempts = d.dispatchId() != null
                    ? "INSERT INTO callback_attempts (dispatch_id, "
                    : "INSERT INTO callback_message_attempts (webhook_id, ";
            for (Attempt a : d.history()) {
                jdbc.update(
                        attempts + "attempt, at, status, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?)",
                        d.dispatchId() != null ? d.dispatchId() : d.webhookId(),
                        a.attempt(),
                        a.at(),
                        a.status(),
                        a.error(),
                        a.durationMs());
            }
        }
        // A dispatch without a callback URL has no delivery before, and none after.
        jdbc.update(
                "INSERT INTO dispatches (id, status, image, fingerprint, spec, has_secrets, worker_id, created_at) "
                        + "VALUES ('d-silent', 'succeeded', 'img:1', 'fp', '{}', FALSE, 'worker-1', ?)",
                T0);
    }

    /** Every delivery of the one outbox, with all its attempts. */
    private static List<Delivery> moved(Jdbc jdbc) {
        List<Delivery> moved = new ArrayList<>();
        for (long id : jdbc.query("SELECT id FROM callback_outbox", row -> row.number(1))) {
            List<Attempt> history = jdbc.query(
                    "SELECT attempt, at, status, error, duration_ms FROM callback_outbox_attempts "
                            + "WHERE delivery_id = ? ORDER BY attempt",
                    row -> new Attempt(
                            (int) row.number("attempt"),
                            row.instant("at"),
                            row.integer("status"),
                            row.string("error"),
                            row.number("duration_ms")),
                    id);
            moved.add(jdbc.one(
                            "SELECT * FROM callback_outbox WHERE id = ?",
                            row -> new Delivery(
                                    row.string("dispatch_id"),
                                    row.string("webhook_id"),
                                    row.string("url"),
                                    row.bytes("body") == null ? null : base64(row.bytes("body")),
                                    row.string("state"),
                                    (int) row.number("attempts"),
                                    (int) row.number("round_attempts"),
                                    row.instant("next_attempt_at"),
                                    row.instant("last_attempt_at"),
                                    row.integer("last_status"),
                                    row.string("last_error"),
                                    row.instant("delivered_at"),
                                    row.string("claimed_by"),
                                    row.instant("claimed_until"),
                                    row.instant("created_at"),
                                    history),
                            id)
                    .orElseThrow());
        }
        return moved;
    }

    /**
     * The moved rows as the worker reads them: the record's view, claims
     * that still hold, the stored bodies, and a new row after the moved ones.
     */
    private static void assertTheOutboxGoesOn(Jdbc jdbc) {
        CallbackStore outbox = new CallbackStore(jdbc, () -> T0);
        CallbackStore.State claimed = outbox.state("d-claimed").orElseThrow();
        assertThat(claimed.state()).isEqualTo(DeliveryState.PENDING);
        assertThat(claimed.attempts()).isEqualTo(2);
        assertThat(claimed.lastStatus()).isEqualTo(503);
        assertThat(claimed.nextAttemptAt()).isEqualTo(T0.plusSeconds(40));
        assertThat(claimed.history())
                .extracting(CallbackStore.AttemptView::attempt, CallbackStore.AttemptView::status)
                .containsExactly(tuple(1, 503), tuple(2, 503));
        assertThat(outbox.state("d-dead").orElseThrow().history())
                .extracting(CallbackStore.AttemptView::attempt)
                .containsExactlyElementsOf(IntStream.rangeClosed(3, 22).boxed().toList());
        assertThat(outbox.state("g_final").orElseThrow().state()).isEqualTo(DeliveryState.DELIVERED);
        assertThat(outbox.state("d-silent")).isEmpty();
        assertThat(outbox.states(List.of("d-due", "d-again", "d-silent"))).containsOnlyKeys("d-due", "d-again");

        // At T0 + 60 s only what nobody holds is claimed: worker-1 and worker-2 hold theirs until T0 + 600 s.
        Instant now = T0.plusSeconds(60);
        List<CallbackStore.Due> due = outbox.claim(now, 10, "worker-3", T0.plusSeconds(1000));
        assertThat(due).extracting(CallbackStore.Due::webhookId).containsExactly("msg_d-due", "msg_d-again");
        assertThat(due).extracting(CallbackStore.Due::roundAttempts).containsExactly(0, 2);
        List<CallbackStore.Due> taken = outbox.claim(T0.plusSeconds(601), 10, "worker-3", T0.plusSeconds(1000));
        assertThat(taken).extracting(CallbackStore.Due::webhookId).containsExactly("msg_d-claimed", "msg_g_b1");
        CallbackStore.Due message = taken.get(1);
        assertThat(message.dispatchId()).isNull();
        assertThat(base64(outbox.messageBody(message.id()).orElseThrow().bytes()))
                .isEqualTo(base64(BINARY));

        assertThat(outbox.pending(Duration.ofSeconds(5))).isEqualTo(4);
        jdbc.transaction("queue", tx -> {
            outbox.enqueueMessage(tx, "default", "msg_h_b2", "https://parent.example/other", new byte[] {1}, T0);
            return null;
        });
        assertThat(outbox.pending(Duration.ofSeconds(5))).isEqualTo(5);
    }
}
