package dev.sluice.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.OtlpReceiver;
import dev.sluice.testsupport.OtlpReceiver.Span;
import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;

/**
 * One dispatch's trace, from the packaged worker to a real OTLP/HTTP receiver
 * (OpenTelemetry's own protobuf types, in Node): its spans from the request to
 * the delivered callback, under the caller's span; the record's traceId; the
 * callback's traceparent; the JSON log lines' ids. An unsampled context is
 * carried on and nothing of it exported; a missing or malformed one starts a
 * trace of its own (ADR 0069).
 */
class TracingIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER = "00f067aa0ba902b7";
    private static final String UNSAMPLED = "0af7651916cd43dd8448eb211c80319c";

    @Test
    void aDispatchIsOneTraceFromItsRequestToItsCallback() throws IOException {
        try (OtlpReceiver collector = OtlpReceiver.start();
                Receiver receiver = Receiver.on("127.0.0.1");
                WorkerProcess worker = WorkerProcess.start(environment(collector))) {
            receiver.then(Receiver.status(503)); // its first attempt fails: two callback spans
            String traced = worker.submit(
                    callback(receiver, "echo hello; echo oops >&2"),
                    "traceparent",
                    "00-" + TRACE + "-" + CALLER + "-01");
            worker.awaitDelivered(traced);

            String unsampled = worker.submit(
                    callback(receiver, "echo quiet"), "traceparent", "00-" + UNSAMPLED + "-" + CALLER + "-00");
            String untraced = worker.submit(callback(receiver, "true"));
            String malformed = worker.submit(callback(receiver, "true"), "traceparent", "00-" + TRACE + "-zz-01");
            for (String id : List.of(unsampled, untraced, malformed)) {
                worker.awaitDelivered(id);
            }
            List<String> ownTraces = List.of(
                    worker.record(untraced).path("traceId").asText(),
                    worker.record(malformed).path("traceId").asText());
            List<Span> spans = collector.awaitSpans(
                    all -> count(all, TRACE, SpanNames.CALLBACK) == 2
                            && ownTraces.stream().allMatch(t -> count(all, t, SpanNames.CALLBACK) == 1),
                    Duration.ofSeconds(60));

            // The traced dispatch: every phase, under the caller's span, in one trace.
            assertThat(worker.record(traced).path("traceId").asText()).isEqualTo(TRACE);
            List<Span> trace =
                    spans.stream().filter(s -> s.traceId().equals(TRACE)).toList();
            Span dispatch = only(trace, SpanNames.DISPATCH);
            assertThat(ancestors(trace, dispatch)).last().isEqualTo(CALLER);
            assertThat(dispatch.attribute(SpanNames.DISPATCH_ID)).isEqualTo(traced);
            for (String phase : List.of(
                    SpanNames.QUEUE_WAIT,
                    SpanNames.CONTAINER_CREATE,
                    SpanNames.CONTAINER_START,
                    SpanNames.RUN,
                    SpanNames.COLLECT,
                    SpanNames.FINISH)) {
                assertThat(only(trace, phase).parentSpanId()).as(phase).isEqualTo(dispatch.spanId());
            }
            assertThat(only(trace, SpanNames.RUN).attribute(SpanNames.EXIT_CODE))
                    .isEqualTo(0);
            Span finish = only(trace, SpanNames.FINISH);
            assertThat(finish.attribute(SpanNames.STATUS)).isEqualTo("succeeded");
            assertThat(finish.attribute(SpanNames.STDOUT_KEPT)).isEqualTo(6);
            assertThat(finish.attribute(SpanNames.STDERR_KEPT)).isEqualTo(5);
            assertThat(finish.attribute(SpanNames.STDOUT_DROPPED)).isEqualTo(0);
            JsonNode digest = worker.record(traced).at("/result/imageDigest"); // none for a local build
            assertThat(only(trace, SpanNames.CONTAINER_CREATE).attribute(SpanNames.IMAGE_DIGEST))
                    .isEqualTo(digest.isTextual() ? digest.asText() : null);

            // Each callback attempt: a client span whose context is the header the receiver got.
            List<Span> attempts = trace.stream()
                    .filter(s -> s.name().equals(SpanNames.CALLBACK))
                    .sorted((a, b) -> Long.compare(a.startNanos(), b.startNanos()))
                    .toList();
            List<Receiver.Request> delivered = receiver.requests().stream()
                    .filter(r -> ("msg_" + traced).equals(r.header("webhook-id")))
                    .toList();
            assertThat(delivered).hasSize(2);
            for (int i = 0; i < 2; i++) {
                Span attempt = attempts.get(i);
                assertThat(attempt.kind()).isEqualTo(Span.CLIENT);
                assertThat(attempt.parentSpanId()).isEqualTo(dispatch.spanId());
                assertThat(attempt.attribute(SpanNames.CALLBACK_ATTEMPT)).isEqualTo(i + 1);
                assertThat(attempt.attribute(SpanNames.HTTP_STATUS)).isEqualTo(i == 0 ? 503 : 200);
                assertThat(delivered.get(i).header("traceparent"))
                        .isEqualTo("00-" + TRACE + "-" + attempt.spanId() + "-01");
            }
            assertThat(attempts.get(0).status().code()).isEqualTo(2);
            assertThat(trace)
                    .allSatisfy(span -> assertThat(span.attributes().values())
                            .noneMatch(v -> v.toString().contains("hello")
                                    || v.toString().contains("oops")));
            System.out.println("tracing: " + tree(trace, dispatch));

            // Unsampled: carried on with its flags, nothing exported.
            assertThat(worker.record(unsampled).path("traceId").asText()).isEqualTo(UNSAMPLED);
            assertThat(headerOf(receiver, unsampled))
                    .startsWith("00-" + UNSAMPLED + "-")
                    .endsWith("-00");
            assertThat(spans).noneMatch(s -> s.traceId().equals(UNSAMPLED));

            // Missing or malformed: a trace of its own, exported like any other.
            for (String id : List.of(untraced, malformed)) {
                String own = worker.record(id).path("traceId").asText();
                assertThat(own).matches("[0-9a-f]{32}").isNotEqualTo(TRACE);
                assertThat(headerOf(receiver, id)).startsWith("00-" + own + "-").endsWith("-01");
                Span root =
                        only(spans.stream().filter(s -> s.traceId().equals(own)).toList(), SpanNames.DISPATCH);
                assertThat(root.attribute(SpanNames.DISPATCH_ID)).isEqualTo(id);
            }

            // The log lines about the traced dispatch name its trace.
            List<JsonNode> lines = await().atMost(Duration.ofSeconds(30))
                    .until(
                            () -> linesOf(worker, traced),
                            l -> l.stream()
                                    .anyMatch(line ->
                                            line.path("message").asText().contains("attempt 2")));
            assertThat(lines)
                    .filteredOn(l -> l.path("message").asText().matches("(accepted|running|ended|callback).*"))
                    .hasSizeGreaterThanOrEqualTo(5)
                    .allSatisfy(l -> assertThat(l.at("/mdc/traceId").asText())
                            .as(l.toString())
                            .isEqualTo(TRACE));
        }
    }

    private static Map<String, String> environment(OtlpReceiver collector) {
        Map<String, String> env = WorkerProcess.environment(
                "tracing",
                Map.of(
                        "SLUICE_LOG_JSON", "true",
                        "QUARKUS_OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", collector.endpoint(),
                        "QUARKUS_OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/protobuf",
                        "QUARKUS_OTEL_BSP_SCHEDULE_DELAY", "200ms"));
        return new HashMap<>(env);
    }

    private static Map<String, Object> callback(Receiver receiver, String script) {
        Map<String, Object> request = new HashMap<>(WorkerClient.script(script));
        request.put("callbackUrl", receiver.url("/hooks"));
        return request;
    }

    private static long count(List<Span> spans, String trace, String name) {
        return spans.stream()
                .filter(s -> s.traceId().equals(trace) && s.name().equals(name))
                .count();
    }

    private static Span only(List<Span> spans, String name) {
        List<Span> named = spans.stream().filter(s -> s.name().equals(name)).toList();
        assertThat(named).as(name + " in " + spans).hasSize(1);
        return named.get(0);
    }

    /** The parent ids above a span, nearest first, up to the first that is not in this trace's export. */
    private static List<String> ancestors(List<Span> trace, Span span) {
        Map<String, Span> byId = trace.stream().collect(Collectors.toMap(Span::spanId, s -> s));
        List<String> up = new ArrayList<>();
        for (Span at = span; !at.parentSpanId().isEmpty(); at = byId.get(at.parentSpanId())) {
            up.add(at.parentSpanId());
            if (!byId.containsKey(at.parentSpanId())) {
                break;
            }
        }
        return up;
    }

    private static String headerOf(Receiver receiver, String id) {
        return receiver.requests().stream()
                .filter(r -> ("msg_" + id).equals(r.header("webhook-id")))
                .reduce((first, last) -> last)
                .orElseThrow()
                .header("traceparent");
    }

    /** Each span's start from the dispatch span's and its length, in milliseconds: the figures docs quote. */
    private static String tree(List<Span> trace, Span dispatch) {
        return trace.stream()
                .sorted((a, b) -> Long.compare(a.startNanos(), b.startNanos()))
                .map(s -> String.format(
                        "%s +%.1f ms %.1f ms",
                        s.name(),
                        (s.startNanos() - dispatch.startNanos()) / 1e6,
                        (s.endNanos() - s.startNanos()) / 1e6))
                .collect(Collectors.joining("; "));
    }

    private static List<JsonNode> linesOf(WorkerProcess worker, String id) throws IOException {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : worker.logText().split("\n")) {
            if (line.startsWith("{")) {
                JsonNode parsed = JSON.readTree(line);
                if (id.equals(parsed.at("/mdc/dispatchId").asText())) {
                    lines.add(parsed);
                }
            }
        }
        return lines;
    }
}
