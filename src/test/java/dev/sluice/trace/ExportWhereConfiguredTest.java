package dev.sluice.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;

/** Spans leave the worker only where an OTLP endpoint is set (ADR 0069). */
class ExportWhereConfiguredTest {

    private static Optional<Boolean> sdkDisabled(Map<String, String> settings) {
        return new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(settings, "settings", 250))
                .withDefaultValue("quarkus.otel.exporter.otlp.endpoint", "http://localhost:4317/")
                .withDefaultValue(ExportWhereConfigured.SDK_DISABLED, "false")
                .withInterceptors(new ExportWhereConfigured())
                .build()
                .getOptionalValue(ExportWhereConfigured.SDK_DISABLED, Boolean.class);
    }

    @Test
    void withoutAnEndpointNothingIsExported() {
        assertThat(sdkDisabled(Map.of())).contains(true);
        assertThat(sdkDisabled(Map.of("quarkus.otel.exporter.otlp.endpoint", "http://localhost:4317/")))
                .as("Quarkus' own default stands for none")
                .contains(true);
    }

    @Test
    void eitherEndpointTurnsTheExportOn() {
        assertThat(sdkDisabled(Map.of("quarkus.otel.exporter.otlp.endpoint", "http://collector:4317")))
                .contains(false);
        assertThat(sdkDisabled(Map.of("quarkus.otel.exporter.otlp.traces.endpoint", "http://localhost:4318")))
                .contains(false);
    }

    @Test
    void anExplicitSettingWins() {
        assertThat(sdkDisabled(Map.of(ExportWhereConfigured.SDK_DISABLED, "false")))
                .contains(false);
        assertThat(sdkDisabled(Map.of(
                        ExportWhereConfigured.SDK_DISABLED,
                        "true",
                        "quarkus.otel.exporter.otlp.endpoint",
                        "http://collector:4317")))
                .contains(true);
    }
}
