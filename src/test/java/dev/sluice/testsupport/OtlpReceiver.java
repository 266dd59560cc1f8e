package dev.sluice.testsupport;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import org.awaitility.Awaitility;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * An OTLP/HTTP trace receiver, as a tracing backend runs one: a Node program
 * (src/test/node/otlp-receiver.mjs) that decodes what an exporter POSTs to
 * {@code /v1/traces} with OpenTelemetry's own protobuf types and prints every
 * span it took. Point the worker's {@code quarkus.otel.exporter.otlp.traces.endpoint}
 * at {@link #endpoint()} with the {@code http/protobuf} protocol.
 */
public final class OtlpReceiver implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {};

    private final Program.Running program;
    private final int port;

    private OtlpReceiver(Program.Running program, int port) {
        this.program = program;
        this.port = port;
    }

    /** Starts the receiver on an ephemeral loopback port, returning once it listens. */
    public static OtlpReceiver start() {
        Program.Running program = Program.startNode("otlp-receiver.mjs");
        try {
            program.awaitLine(line -> line.startsWith("{\"port\""), Duration.ofSeconds(20));
            return new OtlpReceiver(
                    program, read(program.lines().get(0)).get("port").asInt());
        } catch (RuntimeException e) { // a timeout, or a first line that was not the port
            program.close();
            throw new AssertionError("the OTLP receiver did not start; it printed " + program.lines(), e);
        }
    }

    /** The base URL an OTLP/HTTP exporter is given; it POSTs to {@code <endpoint>/v1/traces}. */
    public String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    /** Every span received so far, in the order they arrived. */
    public List<Span> spans() {
        return program.lines().stream()
                .skip(1) // the port
                .map(line -> Span.of(read(line)))
                .toList();
    }

    /** Waits until the spans received satisfy {@code until}, failing after {@code within}, and returns them. */
    public List<Span> awaitSpans(Predicate<List<Span>> until, Duration within) {
        return Awaitility.await()
                .atMost(within)
                .pollInterval(Duration.ofMillis(50))
                .until(this::spans, until::test);
    }

    @Override
    public void close() {
        program.close();
    }

    private static JsonNode read(String line) {
        try {
            return JSON.readTree(line);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * One span as OTLP carries it: ids in lowercase hex ({@code parentSpanId}
     * empty for a root), {@code kind} and {@code status.code} as OTLP's enum
     * numbers, times in Unix nanoseconds, attribute values as JSON gives them
     * (String, Integer or Long, Double, Boolean, List, Map).
     */
    public record Span(
            String traceId,
            String spanId,
            String parentSpanId,
            String name,
            int kind,
            long startNanos,
            long endNanos,
            Status status,
            Map<String, Object> attributes,
            Map<String, Object> resource,
            String scope,
            String traceState,
            int flags) {

        /** OTLP's {@code SpanKind} numbers (trace.proto). */
        public static final int INTERNAL = 1, SERVER = 2, CLIENT = 3, PRODUCER = 4, CONSUMER = 5;

        /** The span's status: {@code code} 0 unset, 1 ok, 2 error (trace.proto {@code Status.StatusCode}). */
        public record Status(int code, String message) {}

        /** Reads one span in the form otlp-receiver.mjs prints it. */
        public static Span of(JsonNode span) {
            return new Span(
                    span.get("traceId").asText(),
                    span.get("spanId").asText(),
                    span.get("parentSpanId").asText(),
                    span.get("name").asText(),
                    span.get("kind").asInt(),
                    Long.parseLong(span.get("startTimeUnixNano").asText()),
                    Long.parseLong(span.get("endTimeUnixNano").asText()),
                    new Status(
                            span.get("status").get("code").asInt(),
                            span.get("status").get("message").asText()),
                    map(span.get("attributes")),
                    map(span.get("resource")),
                    span.get("scope").asText(),
                    span.get("traceState").asText(),
                    span.get("flags").asInt());
        }

        /** The value of attribute {@code key}, or null when the span has none. */
        public Object attribute(String key) {
            return attributes.get(key);
        }

        public boolean isRoot() {
            return parentSpanId.isEmpty();
        }

        public Duration duration() {
            return Duration.ofNanos(endNanos - startNanos);
        }

        private static Map<String, Object> map(JsonNode object) {
            return Collections.unmodifiableMap(new LinkedHashMap<>(JSON.convertValue(object, OBJECT)));
        }
    }
}
