package dev.sluice.record;

import java.time.Duration;
import java.util.List;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Capacity, defaults and maxima for dispatches. */
@ConfigMapping(prefix = "sluice.dispatch")
public interface DispatchConfig {

    /** Containers running at once; more wait in the queue. */
    @WithDefault("64")
    int maxRunning();

    /** Dispatches waiting for a slot; past running + queued, POST answers 429. */
    @WithDefault("1000")
    int maxQueued();

    /**
     * Longest a dispatch may wait in the queue (for a slot, or for an unreachable
     * engine) before it ends as {@code error}.
     */
    @WithDefault("1h")
    Duration maxQueueWait();

    /** Retry-After sent with 429 and 503. */
    @WithDefault("5s")
    Duration retryAfter();

    /** Run time of a dispatch that names no {@code timeout}; past it, it is stopped and ends {@code timed_out}. */
    @WithDefault("30m")
    Duration defaultTimeout();

    /** The longest {@code timeout} a dispatch may ask for. */
    @WithDefault("6h")
    Duration maxTimeout();

    /**
     * Longest {@code idleTimeout} a dispatch may ask for: how long its container
     * may print nothing before it is stopped and ends {@code timed_out} with the
     * error {@code idle}. A dispatch without one is never stopped for being quiet.
     */
    @WithDefault("1h")
    Duration maxIdleTimeout();

    /** Time between SIGTERM and SIGKILL when a dispatch times out or is cancelled. */
    @WithDefault("10s")
    Duration stopGrace();

    /** Memory limit of a container whose dispatch names none. */
    @WithDefault("1G")
    MemorySize defaultMemory();

    /** The most memory a dispatch may ask for. */
    @WithDefault("8G")
    MemorySize maxMemory();

    /** CPU limit of a container whose dispatch names none. */
    @WithDefault("1.0")
    double defaultCpus();

    /** The most CPUs a dispatch may ask for. */
    @WithDefault("4.0")
    double maxCpus();

    /** Process limit of a container whose dispatch names none. */
    @WithDefault("256")
    long defaultPids();

    /** The most processes a dispatch may ask for. */
    @WithDefault("4096")
    long maxPids();

    /** Networks a dispatch may name; the first is the default. */
    @WithDefault("none")
    List<String> allowedNetworks();

    /** Largest {@code input} a dispatch may carry (written to stdin). */
    @WithDefault("1M")
    MemorySize maxInput();

    /**
     * Memory that results being finished may take at once: when many dispatches
     * end together, they take turns building and storing their results, so the
     * heap a worker needs is bounded by its settings.
     */
    @WithDefault("24M")
    MemorySize finishMemory();

    /** How often the engine is pinged and the queue looked at (expiry, engine back). */
    @WithDefault("2s")
    Duration tick();

    /** How often stopped containers and old records are reaped. */
    @WithDefault("1m")
    Duration reaperInterval();

    /**
     * How long a finished dispatch's record is kept (and so its id, its result
     * and redelivery); finished groups go after it too, with their group
     * callbacks that were delivered or given up.
     */
    @WithDefault("30d")
    Duration recordRetention();
}
