package dev.sluice.container;

import java.time.Instant;

/**
 * A container carrying our labels, as listed by the engine.
 *
 * @param state the engine's state: created, running, paused, restarting, removing, exited or dead
 */
public record ManagedContainer(String id, String dispatchId, String workerId, String state, Instant created) {

    public boolean neverStarted() {
        return state.equals("created");
    }

    public boolean stopped() {
        return state.equals("exited") || state.equals("dead");
    }
}
