package dev.sluice.store;

import java.util.UUID;

/**
 * The identity of the store this worker keeps its records in: the same for
 * every replica on one PostgreSQL database, different for every embedded
 * store. Chosen at random by the first worker that starts on the store, and
 * kept in it.
 */
public record StoreIdentity(String id) {

    /** Reads the store's identity, choosing it first if no worker has yet; replicas starting together agree. */
    static StoreIdentity of(Jdbc jdbc) {
        jdbc.insertIfAbsent(
                "INSERT INTO store_identity (singleton, id) VALUES (1, ?)",
                UUID.randomUUID().toString());
        return new StoreIdentity(jdbc.one("SELECT id FROM store_identity WHERE singleton = 1", row -> row.string(1))
                .orElseThrow());
    }
}
