package dev.sluice.container.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.github.dockerjava.transport.DockerHttpClient;

import dev.sluice.testsupport.ScriptedEngine;
import dev.sluice.testsupport.ScriptedEngine.Reply;
import dev.sluice.testsupport.ScriptedEngine.Transport;

/**
 * Our transport reads each kind of body the engine sends, whatever the bytes'
 * arrival: the engine here writes a byte at a time, so every head and chunk
 * boundary falls between two reads.
 */
class EngineHttpClientTest {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final List<EngineCall> observed = new CopyOnWriteArrayList<>();
    private ScriptedEngine engine;

    @AfterEach
    void close() throws IOException {
        timer.shutdownNow();
        if (engine != null) {
            engine.close();
        }
    }

    private String body(Transport transport, String response) throws IOException {
        engine = ScriptedEngine.start(transport, request -> Reply.raw(response));
        EngineHttpClient client = new EngineHttpClient(
                engine.host(),
                Duration.ofSeconds(1),
                Duration.ofSeconds(5),
                EngineHttpClient.Scope.WHOLE_CALL,
                timer,
                new EngineCalls(Duration.ofSeconds(5), Clock.systemUTC()),
                observed::add);
        DockerHttpClient.Request request = DockerHttpClient.Request.builder()
                .method(DockerHttpClient.Request.Method.GET)
                .path("/containers/c1/json")
                .build();
        try (DockerHttpClient.Response answer = client.execute(request);
                InputStream body = answer.getBody()) {
            assertThat(answer.getStatusCode()).isIn(200, 204);
            assertThat(answer.getHeader("content-type")).isEqualTo("application/json");
            String text = new String(body.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(observed).singleElement().satisfies(call -> {
                assertThat(call.operation()).isEqualTo("inspect");
                assertThat(call.outcome()).isEqualTo(EngineCall.Outcome.OK);
            });
            return text;
        }
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void aBodyOfStatedLength(Transport transport) throws IOException {
        assertThat(
                        body(
                                transport,
                                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"Id\":\"c\"}\n"))
                .isEqualTo("{\"Id\":\"c\"}\n");
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void aChunkedBodyWithAnExtensionAndATrailer(Transport transport) throws IOException {
        assertThat(body(
                        transport,
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                                + "4\r\n{\"Id\r\n" + "b;name=value\r\n\":\"c\"}\n0123\r\n"
                                + "0\r\nX-Trailer: t\r\n\r\n"))
                .isEqualTo("{\"Id\":\"c\"}\n0123");
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void aBodyThatEndsWithTheConnection(Transport transport) throws IOException {
        assertThat(body(transport, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n[1,2,3]"))
                .isEqualTo("[1,2,3]");
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void noContent(Transport transport) throws IOException {
        assertThat(body(transport, "HTTP/1.1 204 No Content\r\nContent-Type: application/json\r\n\r\n"))
                .isEmpty();
    }
}
