package dev.sluice.trace;

import org.jboss.logging.MDC;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;

/**
 * One span of a dispatch, current on this thread until it is closed (unless
 * started as a sibling): a span started meanwhile is its child, and every log
 * line logged meanwhile carries its trace and span ids ({@code traceId}, {@code spanId} in the MDC, as
 * Quarkus names them). Closing it ends the span and puts back what the MDC
 * held before, so phases nest. Attributes never carry a secret or output text.
 */
public final class Phase implements AutoCloseable {

    static final String TRACE_ID = "traceId";
    static final String SPAN_ID = "spanId";

    private final Span span;
    private final boolean current;
    private final Scope scope;
    private final Object previousTrace;
    private final Object previousSpan;

    Phase(Span span, boolean current) {
        this.span = span;
        this.current = current;
        this.scope = current ? span.makeCurrent() : Scope.noop();
        this.previousTrace = MDC.get(TRACE_ID);
        this.previousSpan = MDC.get(SPAN_ID);
        SpanContext context = span.getSpanContext();
        if (current && context.isValid()) {
            MDC.put(TRACE_ID, context.getTraceId());
            MDC.put(SPAN_ID, context.getSpanId());
        }
    }

    public Phase attribute(String key, String value) {
        if (value != null) {
            span.setAttribute(key, value);
        }
        return this;
    }

    public Phase attribute(String key, long value) {
        span.setAttribute(key, value);
        return this;
    }

    public Phase attribute(String key, boolean value) {
        span.setAttribute(key, value);
        return this;
    }

    /** Marks the span as failed, with a word or two on why (never a secret: callers pass a reason code). */
    public Phase failed(String why) {
        span.setStatus(StatusCode.ERROR, why);
        return this;
    }

    /** The W3C {@code traceparent} of this span, for a record to keep or a request to carry; null without a trace. */
    public String traceparent() {
        return Tracing.traceparent(span.getSpanContext());
    }

    @Override
    public void close() {
        try {
            span.end();
        } finally {
            scope.close();
            if (current) {
                restore(TRACE_ID, previousTrace);
                restore(SPAN_ID, previousSpan);
            }
        }
    }

    private static void restore(String key, Object previous) {
        if (previous == null) {
            MDC.remove(key);
        } else {
            MDC.put(key, previous);
        }
    }
}
