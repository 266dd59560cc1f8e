package dev.sluice.trace;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.opentelemetry.api.OpenTelemetry;

/** The worker's {@link Tracing}, on the OpenTelemetry that Quarkus configures (ADR 0069). */
class TracingProducer {

    @Produces
    @Singleton
    Tracing tracing(OpenTelemetry openTelemetry) {
        return new Tracing(openTelemetry);
    }
}
