package dev.sluice.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A test peer that speaks the OpenAI chat-completions protocol ({@code POST}
 * with {@code model} and {@code messages}, answering {@code
 * choices[0].message.content}), as the summarizer's endpoint. It records each
 * request and answers as the test scripts it: a text, an HTTP status, or no
 * answer until it is released.
 */
public final class ChatCompletionsServer implements AutoCloseable {

    /** One request as received. */
    public record Request(Map<String, String> headers, JsonNode body) {

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static ChatCompletionsServer shared;

    private final HttpServer server;
    private final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
    private volatile String answer = "a summary";
    private volatile int status = 200;
    private volatile CountDownLatch hang;

    private ChatCompletionsServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/v1/chat/completions", this::handle);
        server.start();
    }

    /** The one server a test profile's configuration can name before the worker starts. */
    public static synchronized ChatCompletionsServer shared() {
        if (shared == null) {
            try {
                shared = new ChatCompletionsServer();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        return shared;
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/chat/completions";
    }

    /** Answers 200 with this text as the summary. */
    public ChatCompletionsServer answers(String text) {
        release();
        this.answer = text;
        this.status = 200;
        return this;
    }

    /** Answers with this status and an error body. */
    public ChatCompletionsServer fails(int code) {
        release();
        this.status = code;
        return this;
    }

    /** Reads each request and answers nothing until {@link #release()}. */
    public ChatCompletionsServer hangs() {
        this.hang = new CountDownLatch(1);
        return this;
    }

    public void release() {
        CountDownLatch h = hang;
        hang = null;
        if (h != null) {
            h.countDown();
        }
    }

    public List<Request> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    public void clear() {
        requests.clear();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonNode body;
            try (InputStream in = exchange.getRequestBody()) {
                body = JSON.readTree(in.readAllBytes());
            }
            Map<String, String> headers = new java.util.HashMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), v.get(0)));
            requests.add(new Request(headers, body));
            CountDownLatch h = hang;
            if (h != null) {
                try {
                    h.await(120, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return;
            }
            byte[] out = status == 200
                    ? JSON.writeValueAsBytes(Map.of(
                            "id",
                            "chatcmpl-test",
                            "object",
                            "chat.completion",
                            "model",
                            body.path("model").asText(),
                            "choices",
                            List.of(Map.of(
                                    "index",
                                    0,
                                    "finish_reason",
                                    "stop",
                                    "message",
                                    Map.of("role", "assistant", "content", answer)))))
                    : "{\"error\":{\"message\":\"scripted failure\"}}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, out.length);
            try (OutputStream o = exchange.getResponseBody()) {
                o.write(out);
            }
        }
    }

    @Override
    public void close() {
        release();
        server.stop(0);
    }
}
