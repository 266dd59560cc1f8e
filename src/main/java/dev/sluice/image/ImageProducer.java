package dev.sluice.image;

import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.sluice.concurrent.Threads;
import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.sandbox.ImagePatterns;
import dev.sluice.outbound.GuardedDnsResolver;
import dev.sluice.store.Jdbc;
import dev.sluice.trace.Tracing;
import io.smallrye.common.annotation.Identifier;

class ImageProducer {

    @Produces
    @Singleton
    EngineImages engineImages(DockerClients clients) {
        return new EngineImages(clients);
    }

    @Produces
    @Singleton
    ImagePolicy imagePolicy(ImagesConfig config) {
        return new ImagePolicy(config.allowed(), GuardedDnsResolver.Lookup.system());
    }

    /** The pulls' own threads: as many as may pull at once (ADR 0059). */
    @Produces
    @Singleton
    @Identifier("image-pulls")
    ExecutorService pullThreads(ImagesConfig config) {
        return Executors.newFixedThreadPool(Math.max(1, config.maxConcurrentPulls()), Threads.named("image-pull-"));
    }

    void closePulls(@Disposes @Identifier("image-pulls") ExecutorService threads) {
        threads.shutdownNow();
    }

    @Produces
    @Singleton
    PulledImages pulledImages(Jdbc jdbc) {
        return new PulledImages(jdbc);
    }

    @Produces
    @Singleton
    ImageCollector imageCollector(
            PulledImages pulled, EngineImages engine, ImagesConfig config, Clock clock, Event<ImageRemoved> removed) {
        return new ImageCollector(
                pulled,
                engine,
                new ImagePatterns(config.pinned().orElse(List.of())),
                config.unusedRetention(),
                config.collectBatch(),
                clock,
                removed::fire);
    }

    @Produces
    @Singleton
    ImageResolver imageResolver(
            ContainerRuntime runtime,
            DockerClients clients,
            ImagesConfig config,
            ImagePolicy policy,
            @Identifier("image-pulls") ExecutorService threads,
            PulledImages pulled,
            EngineImages engine,
            Clock clock,
            Tracing tracing) {
        ImageUses uses = new ImageUses(pulled, engine, clock);
        Map<String, RegistryCredential> configured = new HashMap<>();
        config.registries()
                .forEach((host, registry) ->
                        configured.put(host, new RegistryCredential(registry.username(), registry.password())));
        ImagePulls pulls = new ImagePulls(
                new ImagePuller(clients, config.pullTimeout(), policy::mayPullFrom),
                new RegistryCredentials(configured, config.dockerConfig()),
                threads,
                uses,
                tracing,
                new PullTurns(Math.max(1, config.maxConcurrentPulls()), config.maxConcurrentPullsPerTenant()));
        return new ImageResolver(runtime, pulls, policy, uses);
    }
}
