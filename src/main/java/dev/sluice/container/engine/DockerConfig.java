package dev.sluice.container.engine;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How the worker reaches the Docker engine. */
@ConfigMapping(prefix = "sluice.docker")
public interface DockerConfig {

    /**
     * Docker endpoint: {@code unix:///var/run/docker.sock} or a plain
     * {@code tcp://host:2375} (TLS is refused; ADR 0012). Unset means
     * {@code DOCKER_HOST}, or the platform default.
     */
    Optional<String> host();

    /** Time to open a connection to the engine. */
    @WithDefault("5s")
    Duration connectTimeout();

    /**
     * Deadline of every engine call (ADR 0016): create, start, inspect, kill,
     * remove and list end within it, and attach, wait and log reads are set up
     * within it (their streams last as long as the dispatch or the read needs).
     * At the deadline the connection is closed and the call fails as
     * {@code docker_unavailable}, and readiness is down until calls are answered
     * again. A turn among the engine changes in flight is waited for while they
     * keep finishing, and given up once none has finished within it (ADR 0058).
     */
    @WithDefault("30s")
    Duration callTimeout();

    /** Bound on the health ping; readiness and admission read its last answer. */
    @WithDefault("2s")
    Duration pingTimeout();

    /**
     * Creates, starts and removals in flight at once; the others wait their turn
     * while the engine answers (ADR 0058). 0 for no limit. Chosen by a burst of 50
     * dispatches measured with 4, 8, 16 and no limit (ADR 0016).
     */
    @WithDefault("8")
    int maxConcurrentChanges();
}
