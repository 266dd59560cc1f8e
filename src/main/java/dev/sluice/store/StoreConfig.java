package dev.sluice.store;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How the store's health is watched. */
@ConfigMapping(prefix = "sluice.store")
public interface StoreConfig {

    /** How often the store is asked a trivial query; readiness reads the last answer. */
    @WithDefault("5s")
    Duration probeInterval();

    /** How long one probe may take before it counts as unanswered. */
    @WithDefault("2s")
    Duration probeTimeout();

    /**
     * A store that has not answered for this long is stalled: the embedded one
     * makes liveness fail, since only a restart of the process it lives in
     * helps; PostgreSQL only readiness, since a restart of the worker would not.
     */
    @WithDefault("2m")
    Duration stallTimeout();
}
