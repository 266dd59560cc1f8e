package dev.sluice.record;

import java.time.Instant;

import dev.sluice.store.Jdbc;

/**
 * Work that must be committed with a result, or not at all: the delivery of
 * the result to its callback URL. It runs inside the transaction that stores
 * the result (a transactional outbox), so a stored result is never left
 * without its delivery, nor a delivery without its result.
 */
public interface Outbox {

    /**
     * Queues the delivery of a result just stored in {@code tx} to its
     * dispatch's callback URL, as {@code tenant}'s message; called only for a
     * dispatch that has one.
     */
    void enqueue(Jdbc.Tx tx, String dispatchId, String tenant, String callbackUrl, Instant finishedAt);
}
