package dev.sluice.run;

import java.util.Map;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithParentName;

/**
 * Each tenant's share of the worker's run slots and queue (ADR 0057). A tenant
 * is refused with 429 when what it runs and has queued reaches its own limits,
 * whatever room the worker has left; the worker's totals
 * ({@code sluice.dispatch.max-running}, {@code max-queued}) bound them all.
 */
@ConfigMapping(prefix = "sluice.tenants")
public interface TenantsConfig {

    /**
     * Limits by tenant name. The entry {@code default} is that of every tenant
     * without an entry of its own (the tenant named {@code default} included).
     */
    @WithParentName
    Map<String, Limits> tenants();

    /** One tenant's limits; a limit left unset is the {@code default} entry's, and failing that the worker's. */
    interface Limits {

        /**
         * Dispatches of this tenant running at once; more of its dispatches wait in
         * the queue even while other slots are free. Unset: the {@code default}
         * entry's, else {@code sluice.dispatch.max-running}.
         */
        Optional<Integer> maxRunning();

        /**
         * Dispatches of this tenant waiting for a slot; past its running + queued,
         * its POST answers 429 {@code tenant-at-capacity}. Unset: the {@code default}
         * entry's, else {@code sluice.dispatch.max-queued}.
         */
        Optional<Integer> maxQueued();
    }
}
