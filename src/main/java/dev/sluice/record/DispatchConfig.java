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

    @WithDefault("30m")
    Duration defaultTimeout();

    @WithDefault("6h")
    Duration maxTimeout();

    /**
     * Longest {@code idleTimeout} a dispatch may ask for: how long its container
     * may print nothing before it is stopped. A dispatch without one is never
     * stopped for being quiet.
     */
    @WithDefault("1h")
    Duration maxIdleTimeout();

    /** Time between SIGTERM and SIGKILL when a dispatch times out or is cancelled. */
    @WithDefault("10s")
    Duration stopGrace();

    @WithDefault("1G")
    MemorySize defaultMemory();

    @WithDefault("8G")
    MemorySize maxMemory();

    @WithDefault("1.0")
    double defaultCpus();

    @WithDefault("4.0")
    double maxCpus();

    @WithDefault("256")
    long defaultPids();

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
     * end together, they take turns building and storing their results.
     */
    @WithDefault("24M")
    MemorySize finishMemory();

    /** How often the engine is pinged and the queue looked at (expiry, engine back). */
    @WithDefault("2s")
    Duration tick();

    /** How often stopped containers and old records are reaped. */
    @WithDefault("1m")
    Duration reaperInterval();

    /** How long a finished dispatch's record is kept. */
    @WithDefault("30d")
    Duration recordRetention();
}
