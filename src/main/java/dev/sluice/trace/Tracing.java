package dev.sluice.trace;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;

/**
 * Starts a dispatch's spans. Every span of a dispatch hangs under the one
 * made when it was accepted, whose W3C {@code traceparent} the dispatch keeps
 * in its record: the worker that runs it, a restarted one, or another replica
 * that delivers its callback continues the same trace from there. The W3C
 * format is read and written here whatever OpenTelemetry's own propagators
 * are set to, because the contract names that header (docs/api.md).
 */
public final class Tracing {

    /** The header a request may carry and each callback attempt carries. */
    public static final String TRACEPARENT = "traceparent";

    public static final String TRACESTATE = "tracestate";

    private static final W3CTraceContextPropagator W3C = W3CTraceContextPropagator.getInstance();

    private static final TextMapGetter<Map<String, String>> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };

    private final Tracer tracer;

    public Tracing(OpenTelemetry openTelemetry) {
        this.tracer = openTelemetry.getTracer("dev.sluice");
    }

    /**
     * Makes a request's trace context current until the scope closes: the span
     * this thread is in when the HTTP server traced the request already, else
     * the {@code traceparent} (and {@code tracestate}) the request sent, else
     * none, and the dispatch's span starts a new trace. A malformed header is
     * ignored, as the W3C specification says.
     */
    public Scope enter(String traceparent, String tracestate) {
        if (Span.current().getSpanContext().isValid()) {
            return Scope.noop();
        }
        return under(traceparent, tracestate).makeCurrent();
    }

    /** Continues a dispatch's trace from its kept {@code traceparent}: the phases started meanwhile hang under it. */
    public Phase continued(String traceparent) {
        return new Phase(Span.fromContext(under(traceparent, null)), true);
    }

    /** A new span under the current one (or a trace of its own), current until it is closed. */
    public Phase start(String name) {
        return start(name, SpanKind.INTERNAL);
    }

    public Phase start(String name, SpanKind kind) {
        return new Phase(tracer.spanBuilder(name).setSpanKind(kind).startSpan(), true);
    }

    /** A span under the current one that began before now: when a dispatch began to wait, say. */
    public Phase startedAt(String name, Instant start) {
        return new Phase(tracer.spanBuilder(name).setStartTimestamp(start).startSpan(), true);
    }

    /**
     * A new span under the current one that is not made current: one of
     * several siblings started together (a group's members).
     */
    public Phase sibling(String name) {
        return new Phase(tracer.spanBuilder(name).startSpan(), false);
    }

    /** A span under the current one when this thread is in a dispatch's trace; a phase that records nothing if not. */
    public Phase withinTrace(String name) {
        return withinTrace(name, SpanKind.INTERNAL);
    }

    public Phase withinTrace(String name, SpanKind kind) {
        return Span.current().getSpanContext().isValid() ? start(name, kind) : new Phase(Span.getInvalid(), false);
    }

    /** The trace id a kept {@code traceparent} names; empty when it names none. */
    public static Optional<String> traceId(String traceparent) {
        SpanContext span = Span.fromContext(under(traceparent, null)).getSpanContext();
        return span.isValid() ? Optional.of(span.getTraceId()) : Optional.empty();
    }

    /** The W3C header of a span; null for an invalid one (no trace to continue). */
    static String traceparent(SpanContext span) {
        if (!span.isValid()) {
            return null;
        }
        Map<String, String> carrier = new HashMap<>();
        W3C.inject(Context.root().with(Span.wrap(span)), carrier, Map::put);
        return carrier.get(TRACEPARENT);
    }

    private static Context under(String traceparent, String tracestate) {
        if (traceparent == null) {
            return Context.root();
        }
        Map<String, String> carrier = new HashMap<>();
        carrier.put(TRACEPARENT, traceparent);
        if (tracestate != null) {
            carrier.put(TRACESTATE, tracestate);
        }
        return W3C.extract(Context.root(), carrier, HEADERS);
    }
}
