package dev.sluice.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** A registry that outlives the application reads the gauges of the application running now. */
class GaugesTest {

    private final CompositeMeterRegistry registry = new CompositeMeterRegistry();

    GaugesTest() {
        registry.add(new SimpleMeterRegistry());
    }

    private void start(AtomicInteger running) {
        Gauge.builder("sluice.dispatches.running", running, AtomicInteger::get)
                .strongReference(true)
                .register(registry);
    }

    @Test
    void aRestartedApplicationsGaugeReadsItsOwnObject() {
        start(new AtomicInteger(7));
        Gauges.release(registry);
        start(new AtomicInteger(2));

        assertThat(registry.get("sluice.dispatches.running").gauge().value()).isEqualTo(2);
    }

    @Test
    void withoutTheReleaseTheStoppedApplicationsGaugeWouldStay() {
        start(new AtomicInteger(7));
        start(new AtomicInteger(2));

        assertThat(registry.get("sluice.dispatches.running").gauge().value()).isEqualTo(7);
    }

    @Test
    void onlyTheWorkersGaugesAreReleased() {
        Gauge.builder("jvm.threads.live", () -> 1).register(registry);
        Counter.builder("sluice.dispatches.finished").register(registry).increment();
        start(new AtomicInteger(7));

        Gauges.release(registry);

        assertThat(registry.find("jvm.threads.live").gauge()).isNotNull();
        assertThat(registry.find("sluice.dispatches.finished").counter().count())
                .isEqualTo(1);
        assertThat(registry.find("sluice.dispatches.running").gauge()).isNull();
    }
}
