package dev.sluice.metrics;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import dev.sluice.image.ImageRemoved;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;

/** The images' meters: references the collector removed (ADR 0062), registered at zero from the start. */
@Singleton
@Startup
class ImageMeters {

    private final Counter removed;

    ImageMeters(MeterRegistry registry) {
        this.removed = Counter.builder("sluice.images.removed")
                .description("References of images this worker pulled that the collector removed once unused"
                        + " for sluice.images.unused-retention")
                .register(registry);
    }

    void removed(@Observes ImageRemoved event) {
        removed.increment();
    }
}
