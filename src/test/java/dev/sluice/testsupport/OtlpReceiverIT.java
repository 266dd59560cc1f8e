package dev.sluice.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.StreamSupport;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.OtlpReceiver.Span;

/**
 * The trace receiver the tracing tests rely on reads what an OpenTelemetry
 * exporter sends: spans made by the OpenTelemetry JS SDK and encoded by its
 * own OTLP serializers (otlp-send-spans.mjs) come out of {@link OtlpReceiver}
 * exactly as the SDK holds them, and a body it cannot take is refused with
 * the status OTLP/HTTP gives it, printing no span.
 */
class OtlpReceiverIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String PROTOBUF = "application/x-protobuf";

    @ParameterizedTest
    @ValueSource(strings = {"protobuf", "gzip", "json"})
    void theSpansAnExporterSendsAreTheSpansReceived(String encoding) throws IOException {
        try (OtlpReceiver receiver = OtlpReceiver.start()) {
            JsonNode sent = send(receiver, encoding);
            List<Span> expected = StreamSupport.stream(sent.get("spans").spliterator(), false)
                    .map(Span::of)
                    .toList();

            List<Span> received = receiver.awaitSpans(spans -> spans.size() >= expected.size(), Duration.ofSeconds(10));

            assertThat(received).containsExactlyInAnyOrderElementsOf(expected);
            Span server = named(received, "POST /v1/dispatches");
            Span client = named(received, "callback attempt ✓");
            assertThat(server.parentSpanId()).isEqualTo("00f067aa0ba902b7"); // the caller's, from its traceparent
            assertThat(server.traceId()).isEqualTo(client.traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
            assertThat(client.parentSpanId()).isEqualTo(server.spanId());
            assertThat(client.kind()).isEqualTo(Span.CLIENT);
            assertThat(client.status()).isEqualTo(new Span.Status(2, "receiver answered 503"));
            assertThat(client.attribute("sluice.attempt")).isEqualTo(2);
            assertThat(client.attribute("sluice.tags")).isEqualTo(List.of("a", "b"));
            assertThat(server.duration()).isPositive();
        }
    }

    @Test
    void aBodyItCannotTakeIsRefusedAndYieldsNoSpan() throws Exception {
        try (OtlpReceiver receiver = OtlpReceiver.start()) {
            byte[] notProtobuf = "not protobuf".getBytes(StandardCharsets.UTF_8);
            assertThat(post(receiver, "/v1/traces", PROTOBUF, null, notProtobuf))
                    .isEqualTo(400);
            // 17 MiB of zeros packs into a few KiB: the limit holds for what the body unpacks to.
            assertThat(post(receiver, "/v1/traces", PROTOBUF, "gzip", gzip(new byte[17 << 20])))
                    .isEqualTo(413);
            assertThat(post(receiver, "/v1/traces", PROTOBUF, "br", new byte[0]))
                    .isEqualTo(415);
            assertThat(post(receiver, "/v1/traces", "text/plain", null, new byte[0]))
                    .isEqualTo(415);
            assertThat(post(receiver, "/v1/logs", PROTOBUF, null, new byte[0])).isEqualTo(404);

            // What came after the refusals is all there is.
            send(receiver, "protobuf");
            assertThat(receiver.awaitSpans(spans -> spans.size() >= 2, Duration.ofSeconds(10)))
                    .hasSize(2);
        }
    }

    /** Runs the SDK side, returning its report once the receiver answered it. */
    private static JsonNode send(OtlpReceiver receiver, String encoding) throws IOException {
        Program.Result result = Program.node("", "otlp-send-spans.mjs", receiver.endpoint(), encoding);
        assertThat(result.exitCode()).as(result.output()).isZero();
        JsonNode sent = JSON.readTree(result.stdout());
        assertThat(sent.get("status").asInt()).as(result.output()).isEqualTo(200);
        // The answer decodes, with the serializer's own reader, to a full success: no partialSuccess.
        assertThat(sent.get("response")).as(result.output()).isEqualTo(JSON.createObjectNode());
        return sent;
    }

    private static Span named(List<Span> spans, String name) {
        return spans.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    private static int post(OtlpReceiver receiver, String path, String type, String encoding, byte[] body)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(receiver.endpoint() + path))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", type)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (encoding != null) {
            request.header("Content-Encoding", encoding);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream packed = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(packed)) {
            out.write(bytes);
        }
        return packed.toByteArray();
    }
}
