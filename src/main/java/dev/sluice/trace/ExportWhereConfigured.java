package dev.sluice.trace;

import java.util.List;

import jakarta.annotation.Priority;

import io.smallrye.config.ConfigSourceInterceptor;
import io.smallrye.config.ConfigSourceInterceptorContext;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.Priorities;

/**
 * Exports spans only where an OTLP endpoint is set (ADR 0069). Quarkus' OTLP
 * exporter falls back to {@code http://localhost:4317/} and cannot be turned
 * off at run time otherwise, so a worker without a collector would log a
 * failed export every few seconds. Unless an endpoint is set, this answers
 * {@code quarkus.otel.sdk.disabled} with {@code true}: spans are still made
 * (the SDK keeps its ids and sampling without exporting), so the trace context
 * still reaches the record, the callback and the log lines. A value of
 * {@code quarkus.otel.sdk.disabled} set anywhere (a file, a system property,
 * the environment) is answered as it is.
 */
@Priority(Priorities.APPLICATION)
public final class ExportWhereConfigured implements ConfigSourceInterceptor {

    static final String SDK_DISABLED = "quarkus.otel.sdk.disabled";

    private static final List<String> ENDPOINTS =
            List.of("quarkus.otel.exporter.otlp.endpoint", "quarkus.otel.exporter.otlp.traces.endpoint");

    /** Quarkus' own default, which stands for "not configured". */
    private static final String QUARKUS_DEFAULT = "http://localhost:4317/";

    /**
     * Below every place a person sets a value (application.properties is 250,
     * the environment 300); Quarkus' defaults sit far below.
     */
    private static final int SET_BY_SOMEONE = 100;

    @Override
    public ConfigValue getValue(ConfigSourceInterceptorContext context, String name) {
        ConfigValue value = context.proceed(name);
        if (!SDK_DISABLED.equals(name) || set(value)) {
            return value;
        }
        if (ENDPOINTS.stream().map(context::proceed).anyMatch(ExportWhereConfigured::endpoint)) {
            return value;
        }
        return value == null
                ? ConfigValue.builder().withName(name).withValue("true").build()
                : value.withValue("true");
    }

    private static boolean set(ConfigValue value) {
        return value != null && value.getValue() != null && value.getConfigSourceOrdinal() >= SET_BY_SOMEONE;
    }

    private static boolean endpoint(ConfigValue value) {
        return set(value) && !value.getValue().isBlank() && !QUARKUS_DEFAULT.equals(value.getValue());
    }
}
