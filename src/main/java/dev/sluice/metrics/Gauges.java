package dev.sluice.metrics;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;

/**
 * The worker's gauges, taken out of the registry when the application stops.
 * Each holds the object it reads (the engine monitor, the store monitor, the
 * scheduler's load, a tenant's queue figures), and the registry can outlive
 * the application: Quarkus's global registry stays in a JVM that starts the
 * application again (dev mode, tests). Left there, a gauge would go on
 * reading the stopped application's objects, and the new application's
 * gauge of the same name and tags would be ignored as a duplicate.
 */
@Singleton
class Gauges {

    static final String PREFIX = "sluice.";

    void stop(@Observes ShutdownEvent stop, MeterRegistry registry) {
        release(registry);
    }

    static void release(MeterRegistry registry) {
        for (Meter meter : registry.getMeters()) {
            if (meter instanceof Gauge && meter.getId().getName().startsWith(PREFIX)) {
                registry.remove(meter);
            }
        }
    }
}
