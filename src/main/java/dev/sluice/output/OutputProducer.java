package dev.sluice.output;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.quarkus.runtime.Startup;

class OutputProducer {

    /** Validated at start-up: a worker with impossible caps must not come up. */
    @Produces
    @Startup
    @Singleton
    OutputLimits outputLimits(OutputConfig config) {
        return OutputLimits.from(config);
    }
}
