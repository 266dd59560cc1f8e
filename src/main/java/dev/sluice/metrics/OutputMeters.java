package dev.sluice.metrics;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import dev.sluice.record.DispatchFinished;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** What dispatches' output came to, per stream: bytes captured, bytes the caps dropped, truncations (ADR 0014). */
@Singleton
class OutputMeters {

    /** One stream's meters. */
    private record Stream(Counter captured, Counter dropped, Counter truncations) {

        static Stream of(MeterRegistry registry, String stream) {
            return new Stream(
                    Counter.builder("sluice.output.captured")
                            .description("Bytes dispatches wrote to the stream, all read by the worker before any cap")
                            .baseUnit("bytes")
                            .tag("stream", stream)
                            .register(registry),
                    Counter.builder("sluice.output.dropped")
                            .description("Bytes of the stream left out of results between the kept head and tail")
                            .baseUnit("bytes")
                            .tag("stream", stream)
                            .register(registry),
                    Counter.builder("sluice.output.truncations")
                            .description("Results whose stream was truncated to its cap")
                            .tag("stream", stream)
                            .register(registry));
        }

        void count(DispatchFinished.Stream figures) {
            captured.increment(figures.capturedBytes());
            dropped.increment(figures.droppedBytes());
            if (figures.truncated()) {
                truncations.increment();
            }
        }
    }

    private final Stream stdout;
    private final Stream stderr;

    OutputMeters(MeterRegistry registry) {
        this.stdout = Stream.of(registry, "stdout");
        this.stderr = Stream.of(registry, "stderr");
    }

    void finished(@Observes DispatchFinished event) {
        stdout.count(event.stdout());
        stderr.count(event.stderr());
    }
}
