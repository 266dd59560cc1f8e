package dev.sluice.worker;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** This worker's identity and its life among other replicas. */
@ConfigMapping(prefix = "sluice.worker")
public interface WorkerConfig {

    /**
     * This worker's id, labelled on its containers; unset means the host name.
     * Keep it stable across restarts (the pod name in Kubernetes), so that a
     * restarted worker takes up what it left.
     */
    Optional<String> id();

    /**
     * How long a worker counts as alive after it last renewed its lease (it
     * renews three times per lease). Past it, another replica closes its
     * unfinished dispatches as {@code worker_lost} (ADR 0010).
     */
    @WithDefault("30s")
    Duration lease();

    /** How often this worker's dispatches are reconciled with the engine, and lost workers looked for. */
    @WithDefault("30s")
    Duration reconcileInterval();

    /**
     * A dispatch scheduler whose tick has not completed, or whose queue filler
     * has been stuck in one pass, for this long while the store answers is
     * wedged: liveness fails, since only a restart mends it. Keep it well above
     * {@code sluice.dispatch.tick} and the longest store call.
     */
    @WithDefault("2m")
    Duration schedulerStallTimeout();

    /**
     * On shutdown, how long running dispatches may take to finish; what still
     * runs after it is left to reconciliation. Keep it below the pod's grace period.
     */
    @WithDefault("60s")
    Duration drainPeriod();

    /**
     * Containers with our labels and no record (or a closed one) are removed
     * once this old; only those of this worker's store ({@code dev.sluice.store-id}),
     * so deployments that share an engine leave each other's alone (ADR 0024).
     */
    @WithDefault("5m")
    Duration orphanGrace();

    /**
     * After start-up, take each part of a dispatch's way once in the
     * background (with ids and containers that cannot exist, so nothing is
     * recorded, created or sent), so the first dispatch is as quick as the
     * ones after it. One line at INFO says how it went.
     */
    @WithDefault("true")
    boolean warmUp();

    /**
     * Where the other replicas on the store reach this worker's API, to relay
     * reads of the dispatches it runs (ADR 0065): {@code http://host:port},
     * with no path. Unset means {@code quarkus.http.host} and
     * {@code quarkus.http.port}, or this host's address when the API listens on
     * every interface; in Kubernetes, the pod's IP. Only used with a shared
     * (PostgreSQL) store.
     */
    Optional<URI> advertisedUrl();

    /**
     * How long a relayed read may wait for the replica running the dispatch:
     * to connect, for its answer to begin, and for each read of its body.
     * Past it the read is answered {@code 503 owner-unreachable}, or a body
     * already on its way is cut.
     */
    @WithDefault("15s")
    Duration peerTimeout();

    /**
     * Secrets the replicas on one store share to sign the reads they relay to
     * each other (ADR 0072), comma-separated: each the base64 of at least 32
     * random bytes ({@code head -c 32 /dev/urandom | base64}); the first
     * signs, every one is accepted, so a new one is added everywhere, then put
     * first, then the old one removed. A relayed read carries this signature,
     * never a client's token. Unset, a worker neither relays a read nor takes
     * one relayed to it, and says so at start when its store is shared; the
     * embedded store never relays.
     */
    Optional<List<String>> relaySecrets();
}
