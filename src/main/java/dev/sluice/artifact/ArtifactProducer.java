package dev.sluice.artifact;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.sluice.container.ContainerRuntime;

class ArtifactProducer {

    private static final Logger LOG = Logger.getLogger(ArtifactProducer.class);

    @Produces
    @Singleton
    ArtifactStore artifactStore(
            ArtifactConfig config, Clock clock, @ConfigProperty(name = "sluice.data-dir") String dataDir) {
        if (config.maxDisk().asLongValue() < config.maxTotalSize().asLongValue()) {
            throw new IllegalArgumentException(
                    "sluice.artifacts.max-disk (" + config.maxDisk().asLongValue()
                            + " bytes) is less than sluice.artifacts.max-total-size ("
                            + config.maxTotalSize().asLongValue()
                            + " bytes): one dispatch's artifacts could never be kept");
        }
        if (config.maxDiskPerTenant().asLongValue() < config.maxTotalSize().asLongValue()) {
            throw new IllegalArgumentException("sluice.artifacts.max-disk-per-tenant ("
                    + config.maxDiskPerTenant().asLongValue()
                    + " bytes) is less than sluice.artifacts.max-total-size ("
                    + config.maxTotalSize().asLongValue()
                    + " bytes): one dispatch's artifacts could never be kept");
        }
        Path dir = Path.of(config.dir());
        Path before = Path.of(dataDir, "artifacts");
        if (!before.toAbsolutePath().normalize().equals(dir.toAbsolutePath().normalize())
                && Files.isDirectory(before)) {
            LOG.warnf(
                    "%s holds artifacts of an earlier version, which are no longer served: artifacts are kept in %s"
                            + " (sluice.artifacts.dir); move them there while the worker is stopped, or delete them"
                            + " (docs/operations.md, \"Disk\")",
                    before, dir);
        }
        return new ArtifactStore(
                dir,
                config.retention(),
                config.maxDisk().asLongValue(),
                config.maxDiskPerTenant().asLongValue(),
                clock);
    }

    @Produces
    @Singleton
    ArtifactCollection artifactCollection(ContainerRuntime runtime, ArtifactStore store, ArtifactConfig config) {
        return new ArtifactCollection(runtime, store, config);
    }
}
