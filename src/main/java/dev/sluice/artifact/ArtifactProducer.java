package dev.sluice.artifact;

import java.nio.file.Path;
import java.time.Clock;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.sluice.container.ContainerRuntime;

class ArtifactProducer {

    @Produces
    @Singleton
    ArtifactStore artifactStore(ArtifactConfig config, Clock clock) {
        return new ArtifactStore(Path.of(config.dir()), config.retention(), clock);
    }

    @Produces
    @Singleton
    ArtifactCollection artifactCollection(ContainerRuntime runtime, ArtifactStore store, ArtifactConfig config) {
        return new ArtifactCollection(runtime, store, config);
    }
}
