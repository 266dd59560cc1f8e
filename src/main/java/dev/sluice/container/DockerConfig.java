package dev.sluice.container;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How the worker reaches the Docker engine. */
@ConfigMapping(prefix = "sluice.docker")
public interface DockerConfig {

    /** Docker endpoint ({@code unix:///var/run/docker.sock}, {@code tcp://host:2376}); unset means DOCKER_HOST or the platform default. */
    Optional<String> host();

    /** Time to open a connection to the engine. */
    @WithDefault("5s")
    Duration connectTimeout();

    /**
     * Time a short call (create, start, inspect, kill, remove) may take. Log
     * streams and waits use a client without a read timeout; their deadlines
     * are enforced by the dispatch watchdog.
     */
    @WithDefault("30s")
    Duration callTimeout();

    /** Bound on the health ping; readiness and admission read its last answer. */
    @WithDefault("2s")
    Duration pingTimeout();

    /** Connections of the control client, kept apart from the streams' pool so a call never waits behind a stream. */
    @WithDefault("32")
    int controlConnections();

    /**
     * Connections of the streaming client: each running dispatch holds two
     * (its attach and its wait), and each log read one. Opened on demand, so a
     * high limit costs nothing until it is used.
     */
    @WithDefault("1024")
    int streamConnections();
}
