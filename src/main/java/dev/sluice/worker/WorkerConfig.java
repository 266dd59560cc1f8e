package dev.sluice.worker;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** This worker's identity and its life among other replicas. */
@ConfigMapping(prefix = "sluice.worker")
public interface WorkerConfig {

    /** Stable id of this worker (the pod name in Kubernetes); unset means the host name. */
    Optional<String> id();

    /**
     * How long a worker counts as alive after it last renewed its lease (it
     * renews three times per lease). Past it, another replica closes its
     * unfinished dispatches as worker_lost.
     */
    @WithDefault("30s")
    Duration lease();

    /** How often this worker's dispatches are reconciled with the engine, and lost workers looked for. */
    @WithDefault("30s")
    Duration reconcileInterval();

    /**
     * On shutdown, how long running dispatches may take to finish; what still
     * runs after it is left to reconciliation. Keep it below the pod's grace period.
     */
    @WithDefault("60s")
    Duration drainPeriod();

    /** Containers with our labels and no record are removed once this old. */
    @WithDefault("5m")
    Duration orphanGrace();

    /**
     * After start-up, take each part of a dispatch's way once in the
     * background (with ids and containers that cannot exist, so nothing is
     * recorded, created or sent), so the first dispatch is as quick as the
     * ones after it.
     */
    @WithDefault("true")
    boolean warmUp();
}
