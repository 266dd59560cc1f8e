package dev.sluice.image;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.sluice.record.PullPolicy;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Which images may be dispatched, and how they are pulled from their registries (ADR 0059). */
@ConfigMapping(prefix = "sluice.images")
public interface ImagesConfig {

    /**
     * Patterns an image reference must match, comma-separated: {@code *} matches
     * any run of characters, so {@code registry.example/agents/*} allows one
     * registry path. {@code *} alone allows every image of a registry named by
     * a public name. A registry named by an IP address or as {@code localhost}
     * ({@code 10.0.0.5/x}, {@code 127.0.0.1:5443/x}, {@code [::1]:5000/x}) is
     * allowed only by a pattern that names it literally, host and port as the
     * image writes them and no {@code *} before the first {@code /}
     * ({@code 127.0.0.1:5443/*}); so is a registry whose name resolves to a
     * loopback, private or other internal address when its image is pulled
     * (ADR 0075). Other images are refused with 403. An image the engine holds
     * under other repositories than the one asked for must match by one of
     * them too.
     */
    @WithDefault("*")
    List<String> allowed();

    /**
     * When images are pulled: {@code never} (they must be on the engine; a
     * missing one ends {@code image_not_found}), {@code if-not-present}, or
     * {@code always} (the registry is asked at each dispatch). A dispatch's
     * {@code imagePullPolicy} may ask for this one or one before it in that order.
     */
    @WithDefault("if-not-present")
    PullPolicy pullPolicy();

    /**
     * Credentials per registry host, as {@code sluice.images.registries."registry.example:5000".username}
     * and {@code .password} (quote a host with dots). They go to the engine with a pull of that host's images
     * and nowhere else: never into a log, a record, a result or an event.
     */
    Map<String, Registry> registries();

    /**
     * A Docker {@code config.json} whose {@code auths} give credentials per registry host (a mounted
     * Kubernetes secret of type {@code kubernetes.io/dockerconfigjson}, for one); read again at each pull.
     * Hosts configured under {@code sluice.images.registries} come first.
     */
    Optional<Path> dockerConfig();

    /** How long one pull may take, from the engine's first byte to its last; then it is closed. */
    @WithDefault("10m")
    Duration pullTimeout();

    /**
     * How many pulls of different images run at once; the others wait, without
     * holding a run slot, the tenants taking turns (ADR 0073).
     */
    @WithDefault("2")
    int maxConcurrentPulls();

    /**
     * How long an image the worker pulled may go unused (no container made of
     * it by any worker on the same engine) before the collector removes its
     * reference; {@code 0} turns the collector off, and pulled images then stay
     * until removed by hand. Images the worker did not pull are never removed.
     * It counts from a dispatch's start: keep it above {@code sluice.dispatch.max-timeout}.
     */
    @WithDefault("24h")
    Duration unusedRetention();

    /** How often the collector of unused images runs; each round removes at most {@code collect-batch} references. */
    @WithDefault("10m")
    Duration collectInterval();

    /** How many references one round of the collector removes at most; it never forces a removal. */
    @WithDefault("20")
    int collectBatch();

    /**
     * Patterns of pulled images the collector never removes, comma-separated, in
     * the syntax of {@code sluice.images.allowed}, matched against the
     * normalized reference ({@code docker.io/library/busybox:latest},
     * {@code registry.example/agents/reviewer:1.4}). None by default.
     */
    Optional<List<String>> pinned();

    /**
     * How many of the pulls running at once one tenant's dispatches may hold; a
     * tenant's further pulls wait for its own to end while other tenants' start,
     * so one tenant's stalled registry never holds every pull (ADR 0073). A pull
     * of an image several tenants asked for counts once, against the tenant whose
     * turn started it. Half of {@code max-concurrent-pulls}.
     */
    @WithDefault("1")
    int maxConcurrentPullsPerTenant();

    /** The credentials of one registry. */
    interface Registry {

        /** The user name a pull from this registry host authenticates as. */
        String username();

        /** Its password or token; sent to the engine with the pull alone, never logged. */
        String password();
    }
}
