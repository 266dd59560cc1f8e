package dev.sluice.container;

import java.util.List;

/** The containers carrying our labels on the engine, and their removal: what reconciliation and reaping work on. */
public interface ContainerInventory {

    /** Every container carrying our dispatch label on this engine, whichever worker created it. */
    List<ManagedContainer> managed();

    /**
     * The containers the worker {@code workerId} created, running or not, as
     * the engine selects them by label: an engine shared with other workers or
     * stores may hold thousands of containers that are none of its business.
     */
    List<ManagedContainer> managedBy(String workerId);

    /** Removes the container and its log; idempotent. */
    void remove(String containerId);
}
