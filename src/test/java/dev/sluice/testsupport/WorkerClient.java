package dev.sluice.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The API of a worker that runs outside the test's JVM (a process of its own,
 * or a container), over plain HTTP: what the crash, replica, chaos and image
 * tests and the benchmark harness drive it with. Its probes, metrics and API
 * document are on the management port ({@link #probe}).
 */
public class WorkerClient {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> TERMINAL = Set.of("succeeded", "failed", "timed_out", "cancelled", "error");

    private final String baseUrl;
    private final String managementUrl;
    private final String token;

    public WorkerClient(String baseUrl, String managementUrl) {
        this(baseUrl, managementUrl, null);
    }

    private WorkerClient(String baseUrl, String managementUrl, String token) {
        this.baseUrl = baseUrl;
        this.managementUrl = managementUrl;
        this.token = token;
    }

    /** A client of the same worker that sends {@code Authorization: Bearer <token>} on every API request. */
    public WorkerClient as(String token) {
        return new WorkerClient(baseUrl, managementUrl, token);
    }

    /** A request that runs a shell script in the test agent image. */
    public static Map<String, Object> script(String script) {
        return Map.of("image", TestDocker.AGENT_IMAGE, "command", List.of("sh", "-c", script));
    }

    public String url(String path) {
        return baseUrl + path;
    }

    /** The management port's base URL, where a Prometheus scrapes {@code /q/metrics}. */
    public String managementUrl() {
        return managementUrl;
    }

    public int status(String path) throws IOException {
        return get(path).statusCode();
    }

    public HttpResponse<String> get(String path) throws IOException {
        return send(HttpRequest.newBuilder(URI.create(url(path))).GET());
    }

    /** A GET whose answer may take longer than the usual ten seconds to begin. */
    public HttpResponse<String> get(String path, Duration within) throws IOException {
        return send(HttpRequest.newBuilder(URI.create(url(path))).GET(), within);
    }

    /** GET on the management port: {@code /q/health/*}, {@code /q/metrics}, {@code /q/openapi}. */
    public HttpResponse<String> probe(String path) throws IOException {
        return send(HttpRequest.newBuilder(URI.create(managementUrl + path)).GET());
    }

    public int probeStatus(String path) throws IOException {
        return probe(path).statusCode();
    }

    /**
     * The status of a GET on the management port's number at {@code address}
     * instead of loopback; empty when nothing listens there (the connection
     * is refused).
     */
    public OptionalInt probeStatusAt(InetAddress address, String path) throws IOException {
        URI management = URI.create(managementUrl);
        URI at = URI.create("http://" + address.getHostAddress() + ":" + management.getPort() + path);
        try {
            return OptionalInt.of(send(HttpRequest.newBuilder(at).GET()).statusCode());
        } catch (ConnectException e) {
            return OptionalInt.empty();
        }
    }

    public HttpResponse<String> post(String path, String json) throws IOException {
        return send(HttpRequest.newBuilder(URI.create(url(path)))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    public HttpResponse<String> delete(String path) throws IOException {
        return send(HttpRequest.newBuilder(URI.create(url(path))).DELETE());
    }

    /** POSTs a dispatch request as it is, whatever the answer. */
    public HttpResponse<String> dispatch(Map<String, ?> request) throws IOException {
        return post("/v1/dispatches", json(request));
    }

    /** Submits a dispatch, failing unless it is accepted, and returns its id. */
    public String submit(Map<String, ?> request) throws IOException {
        HttpResponse<String> response = dispatch(request);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        return JSON.readTree(response.body()).path("id").asText();
    }

    /** Submits a dispatch with one more request header (a {@code traceparent}, say), and returns its id. */
    public String submit(Map<String, ?> request, String header, String value) throws IOException {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(url("/v1/dispatches")))
                .header("Content-Type", "application/json")
                .header(header, value)
                .POST(HttpRequest.BodyPublishers.ofString(json(request))));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        return JSON.readTree(response.body()).path("id").asText();
    }

    /** The dispatch's record. */
    public JsonNode record(String id) throws IOException {
        return JSON.readTree(get("/v1/dispatches/" + id).body());
    }

    /** Waits until the record satisfies {@code condition}, and returns it. */
    public JsonNode awaitRecord(String id, Duration within, Predicate<JsonNode> condition) {
        return await().atMost(within)
                .pollInterval(Duration.ofMillis(200))
                .ignoreExceptions()
                .until(() -> record(id), condition);
    }

    public JsonNode awaitStatus(String id, String status) {
        return awaitRecord(
                id, Duration.ofSeconds(30), r -> status.equals(r.path("status").asText()));
    }

    public JsonNode awaitTerminal(String id, Duration within) {
        return awaitRecord(id, within, r -> TERMINAL.contains(r.path("status").asText()));
    }

    /** Waits until the dispatch's result was delivered to its callback URL. */
    public JsonNode awaitDelivered(String id) {
        return awaitRecord(id, Duration.ofSeconds(60), r -> "delivered".equals(callbackState(r)));
    }

    /**
     * Waits until the worker reports started (the store is migrated,
     * reconciliation has run), failing at once when it is no longer alive.
     */
    protected void awaitStarted(Duration within, BooleanSupplier alive, Supplier<String> diagnostics) {
        Instant deadline = Instant.now().plus(within);
        while (Instant.now().isBefore(deadline)) {
            if (!alive.getAsBoolean()) {
                throw new IllegalStateException("worker exited at start-up; " + diagnostics.get());
            }
            try {
                if (probeStatus("/q/health/started") == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("worker did not start within " + within + "; " + diagnostics.get());
    }

    public static String callbackState(JsonNode record) {
        return record.path("callback").path("state").asText();
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException {
        return send(request, Duration.ofSeconds(10));
    }

    private HttpResponse<String> send(HttpRequest.Builder request, Duration within) throws IOException {
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            return HTTP.send(request.timeout(within).build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }
}
