package dev.sluice.container;

import java.util.List;

/** The containers carrying our labels on the engine, and their removal: what reconciliation and reaping work on. */
public interface ContainerInventory {

    /** Every container carrying our dispatch label on this engine, whichever worker created it. */
    List<ManagedContainer> managed();

    /** Removes the container and its log; idempotent. */
    void remove(String containerId);
}
