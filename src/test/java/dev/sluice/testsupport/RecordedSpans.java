package dev.sluice.testsupport;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/**
 * OpenTelemetry's own SDK, with its default sampler (parent-based, always on),
 * exporting each ended span here as it ends: what a collector would receive.
 */
public final class RecordedSpans implements SpanExporter {

    private final List<SpanData> ended = new CopyOnWriteArrayList<>();
    private final OpenTelemetry openTelemetry = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder()
                    .addSpanProcessor(SimpleSpanProcessor.create(this))
                    .build())
            .build();

    public OpenTelemetry openTelemetry() {
        return openTelemetry;
    }

    public List<SpanData> ended() {
        return List.copyOf(ended);
    }

    public SpanData named(String name) {
        return ended.stream()
                .filter(s -> s.getName().equals(name))
                .reduce((a, b) -> {
                    throw new AssertionError("more than one span named " + name);
                })
                .orElseThrow(() -> new AssertionError("no span named " + name + " in " + ended));
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        ended.addAll(spans);
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }
}
