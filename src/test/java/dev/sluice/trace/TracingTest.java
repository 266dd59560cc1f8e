package dev.sluice.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;

import org.jboss.logging.MDC;
import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.RecordedSpans;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.SpanData;

/**
 * A dispatch's trace as the W3C specification has it: continued from a
 * request's traceparent, unsampled when it was, new when it was missing or
 * malformed, and carried on from what the record keeps.
 */
class TracingTest {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER = "00f067aa0ba902b7";

    private final RecordedSpans spans = new RecordedSpans();
    private final Tracing tracing = new Tracing(spans.openTelemetry());

    private String accepted(String traceparent) {
        try (Scope request = tracing.enter(traceparent, null);
                Phase span = tracing.start(SpanNames.DISPATCH)) {
            return span.traceparent();
        }
    }

    @Test
    void aSampledRequestIsContinuedUnderTheCallersSpan() {
        String kept = accepted("00-" + TRACE + "-" + CALLER + "-01");

        SpanData dispatch = spans.named(SpanNames.DISPATCH);
        assertThat(dispatch.getTraceId()).isEqualTo(TRACE);
        assertThat(dispatch.getParentSpanId()).isEqualTo(CALLER);
        assertThat(kept).isEqualTo("00-" + TRACE + "-" + dispatch.getSpanId() + "-01");
        assertThat(Tracing.traceId(kept)).contains(TRACE);
    }

    @Test
    void anUnsampledRequestKeepsItsTraceIdAndRecordsNothing() {
        String kept = accepted("00-" + TRACE + "-" + CALLER + "-00");

        assertThat(spans.ended()).isEmpty();
        assertThat(kept).startsWith("00-" + TRACE + "-").endsWith("-00").doesNotContain(CALLER);
        try (Phase trace = tracing.continued(kept);
                Phase callback = tracing.withinTrace(SpanNames.CALLBACK)) {
            assertThat(callback.traceparent()).startsWith("00-" + TRACE + "-").endsWith("-00");
        }
        assertThat(spans.ended()).isEmpty();
    }

    @Test
    void aMissingOrMalformedTraceparentStartsATraceOfItsOwn() {
        String none = accepted(null);
        String malformed = accepted("00-" + TRACE.toUpperCase() + "-" + CALLER + "-01");

        assertThat(spans.ended()).hasSize(2).allSatisfy(span -> {
            assertThat(span.getParentSpanContext().isValid()).isFalse();
            assertThat(span.getTraceId()).isNotEqualTo(TRACE);
        });
        assertThat(Tracing.traceId(none)).isPresent().isNotEqualTo(Tracing.traceId(malformed));
    }

    @Test
    void laterPhasesHangUnderTheKeptContextAndNameItInTheLog() {
        String kept = accepted("00-" + TRACE + "-" + CALLER + "-01");
        String dispatchSpan = spans.named(SpanNames.DISPATCH).getSpanId();

        try (Phase trace = tracing.continued(kept)) {
            tracing.startedAt(SpanNames.QUEUE_WAIT, Instant.now().minusSeconds(2))
                    .close();
            try (Phase run = tracing.start(SpanNames.RUN).attribute(SpanNames.EXIT_CODE, 3)) {
                assertThat(MDC.get("traceId")).isEqualTo(TRACE);
                assertThat(MDC.get("spanId")).isEqualTo(run.traceparent().substring(36, 52));
                try (Phase finish = tracing.withinTrace(SpanNames.FINISH)) {
                    assertThat(MDC.get("spanId")).isEqualTo(finish.traceparent().substring(36, 52));
                }
                assertThat(MDC.get("spanId")).isEqualTo(run.traceparent().substring(36, 52));
            }
            assertThat(MDC.get("spanId")).isEqualTo(dispatchSpan);
        }
        assertThat(MDC.get("traceId")).isNull();

        SpanData run = spans.named(SpanNames.RUN);
        assertThat(spans.named(SpanNames.QUEUE_WAIT).getParentSpanId()).isEqualTo(dispatchSpan);
        assertThat(run.getParentSpanId()).isEqualTo(dispatchSpan);
        assertThat(run.getAttributes().asMap()).containsValue(3L);
        assertThat(spans.named(SpanNames.FINISH).getParentSpanId()).isEqualTo(run.getSpanId());
        assertThat(spans.ended())
                .allSatisfy(span -> assertThat(span.getTraceId()).isEqualTo(TRACE));
    }

    @Test
    void outsideATraceNothingIsRecordedAndNothingIsCarried() {
        try (Phase orphan = tracing.withinTrace(SpanNames.FINISH)) {
            assertThat(orphan.traceparent()).isNull();
        }
        try (Phase old = tracing.continued(null);
                Phase callback = tracing.withinTrace(SpanNames.CALLBACK)) {
            assertThat(callback.traceparent()).isNull();
        }
        assertThat(spans.ended()).isEmpty();
        assertThat(Tracing.traceId(null)).isEmpty();
    }
}
