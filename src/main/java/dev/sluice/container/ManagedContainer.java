package dev.sluice.container;

import java.time.Instant;

/**
 * A container carrying our labels, as listed by the engine.
 *
 * @param storeId the store holding its record; null on containers created before stores were labelled
 * @param state the engine's state: created, running, paused, restarting, removing, exited or dead
 */
public record ManagedContainer(
        String id, String dispatchId, String workerId, String storeId, String state, Instant created) {

    /** Whether its record may be in the store {@code storeId}: it says so, or it does not say. */
    public boolean ofStore(String storeId) {
        return this.storeId == null || this.storeId.equals(storeId);
    }

    public boolean neverStarted() {
        return state.equals("created");
    }

    public boolean stopped() {
        return state.equals("exited") || state.equals("dead");
    }
}
