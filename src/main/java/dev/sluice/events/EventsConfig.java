package dev.sluice.events;

import java.time.Duration;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Bounds on the live event streams (docs/api.md, section 2.11). */
@ConfigMapping(prefix = "sluice.events")
public interface EventsConfig {

    /**
     * Most bytes of live output one subscriber is sent per second, both streams
     * together; what a subscriber cannot be sent in time it is told it missed.
     */
    @WithDefault("64K")
    MemorySize maxRate();

    /**
     * Live output held for one subscriber, per stream, while it waits to be
     * sent: past it, output is dropped and the subscriber gets a gap event.
     */
    @WithDefault("64K")
    MemorySize subscriberBuffer();

    /** Open event streams at once, all routes together; past it, a new one is refused with {@code 429 too-many-streams}. */
    @WithDefault("1000")
    int maxSubscribers();

    /**
     * Open event streams of one tenant at once, all routes together; past it, a
     * new one of that tenant is refused with {@code 429 too-many-streams}, so one
     * tenant cannot take every stream from the others.
     */
    @WithDefault("500")
    int maxSubscribersPerTenant();

    /** How often live output is sent to subscribers, and closed connections are let go. */
    @WithDefault("250ms")
    Duration flushInterval();
}
