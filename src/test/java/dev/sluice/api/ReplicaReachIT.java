package dev.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.ManagedContainer;
import dev.sluice.testsupport.Digests;
import dev.sluice.testsupport.Program;
import dev.sluice.testsupport.TcpProxy;
import dev.sluice.testsupport.TestDocker;
import dev.sluice.testsupport.TestStores;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;
import dev.sluice.worker.RelaySignatures;

/**
 * Two replicas on one PostgreSQL and one engine (ADR 0065): whichever runs a
 * dispatch, the other answers for it. A cancel sent to the other stops it; its
 * log (masked with a secret only the runner holds), its artifact and its live
 * events read through the other are the runner's; another tenant is told what
 * an unknown id is told; once the runner is dead its log and artifact are gone.
 * The log read through the other's MCP server (read_log) is the runner's too.
 *
 * <p>Each replica advertises itself through a TCP relay that keeps what
 * crosses it: relayed reads carry the replicas' signature and never the
 * client's token (ADR 0072). A relay replayed, forged, signed with another
 * secret, or made of a client's token alone is refused {@code 401} and reads
 * nothing; a replica without the secret relays nothing and says so.
 */
class ReplicaReachIT {

    private static final String DATABASE = "sluice_reach_test";
    private static final String ALPHA = "alpha-token-0123456789";
    private static final String BETA = "beta-token-0123456789";
    private static final String SECRET = "reach-secret-7f3a9c";
    /** The replicas' shared relay secret: the base64 of 32 bytes. */
    private static final String RELAY_SECRET = "UmVhY2hJVCByZWxheSBzZWNyZXQgb2YgMzIgYnl0ZXM=";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** A replica with the relay secret, advertising itself through {@code relay}. */
    private static Map<String, String> replica(String id, TcpProxy relay) {
        Map<String, String> env = replica(id);
        env.put("SLUICE_WORKER_RELAY_SECRETS", RELAY_SECRET);
        env.put("SLUICE_WORKER_ADVERTISED_URL", "http://127.0.0.1:" + relay.port());
        return env;
    }

    private static Map<String, String> replica(String id) {
        Path data = WorkerProcess.freshDataDir(id);
        Map<String, String> env = WorkerProcess.baseEnvironment(data, id);
        env.put("SLUICE_ARTIFACTS_DIR", data.resolve("artifacts").toString()); // each its own disk, as pods have
        env.put("QUARKUS_DATASOURCE_JDBC_URL", TestStores.postgresUrl(DATABASE));
        env.put("QUARKUS_DATASOURCE_USERNAME", TestStores.postgresUser());
        env.put("QUARKUS_DATASOURCE_PASSWORD", TestStores.postgresPassword());
        env.put("SLUICE_API_TOKENS", "alpha:" + ALPHA + ",beta:" + BETA);
        env.put("SLUICE_WORKER_LEASE", "3s");
        env.put("SLUICE_DISPATCH_TICK", "1s");
        env.put("SLUICE_WORKER_WARM_UP", "false"); // two JVMs starting at once on two cores
        return env;
    }

    @Test
    void eitherReplicaAnswersForADispatchTheOtherRuns() throws Exception {
        Flyway.configure()
                .dataSource(TestStores.postgres(DATABASE))
                .cleanDisabled(false)
                .load()
                .clean();
        AtomicInteger portA = new AtomicInteger();
        AtomicInteger portB = new AtomicInteger();
        try (TcpProxy relayA = TcpProxy.to("127.0.0.1", portA::get);
                TcpProxy relayB = TcpProxy.to("127.0.0.1", portB::get)) {
            CompletableFuture<WorkerProcess> second =
                    CompletableFuture.supplyAsync(() -> WorkerProcess.start(replica("reach-b", relayB)));
            try (WorkerProcess a = WorkerProcess.start(replica("reach-a", relayA));
                    WorkerProcess b = second.get(90, TimeUnit.SECONDS);
                    var clients = TestDocker.clients()) {
                portA.set(URI.create(a.url("")).getPort());
                portB.set(URI.create(b.url("")).getPort());
                replicas(a, b, relayA, relayB, new ContainerRuntime(clients, TestDocker.containerConfig()));
            }
        }
    }

    private void replicas(WorkerProcess a, WorkerProcess b, TcpProxy relayA, TcpProxy relayB, ContainerRuntime engine)
            throws Exception {
        List<WorkerProcess> both = List.of(a, b);

        String finished = submit(
                a,
                "finished",
                "yes 0123456789abcdef | head -c 300000; echo \"$TOKEN\";"
                        + " mkdir -p /sluice/out/artifacts; head -c 200000 /dev/urandom > /sluice/out/artifacts/data.bin");
        String running = submit(a, "running", "echo started; sleep 60");
        awaitStatus(a, finished, "succeeded");
        awaitStatus(a, running, "running");
        WorkerProcess runner = runnerOf(engine, running, both);
        WorkerProcess other = runner == a ? b : a;
        WorkerProcess finisher = runnerOf(engine, finished, both);
        WorkerProcess reader = finisher == a ? b : a;

        // The log, masked with a secret the reader never held, is the runner's, whole and in part.
        String log = "/v1/dispatches/" + finished + "/logs/stdout";
        for (String range : List.of("?limit=16777216", "?offset=1000&limit=70000")) {
            HttpResponse<byte[]> mine = get(finisher, log + range, ALPHA);
            HttpResponse<byte[]> relayed = get(reader, log + range, ALPHA);
            assertThat(mine.statusCode()).isEqualTo(200);
            assertThat(relayed.statusCode()).as(text(relayed)).isEqualTo(200);
            assertSameBytes(relayed, mine);
            assertThat(relayed.headers().firstValue("Sluice-Log-End"))
                    .isEqualTo(mine.headers().firstValue("Sluice-Log-End"));
        }
        assertThat(new String(get(reader, log + "?offset=300000", ALPHA).body(), StandardCharsets.UTF_8))
                .doesNotContain(SECRET)
                .contains("*****");

        // The same through the other replica's MCP server, as an agent's MCP client reads it (read_log).
        Program.Result mcp = Program.node(
                Duration.ofMinutes(1),
                "",
                "mcp-read-log.mjs",
                reader.url("/mcp"),
                ALPHA,
                finished,
                "stdout",
                "299990",
                "1000");
        assertThat(mcp.exitCode()).as(mcp.output()).isZero();
        JsonNode read = JSON.readTree(mcp.stdout());
        assertThat(read.path("isError").asBoolean()).as(mcp.stdout()).isFalse();
        assertThat(read.path("answer").path("agentWritten").path("/text").asText())
                .isEqualTo(text(get(finisher, log + "?offset=299990&limit=1000", ALPHA)))
                .doesNotContain(SECRET);

        // The artifact, on the finisher's disk alone, whole and by range.
        String artifact = "/v1/dispatches/" + finished + "/artifacts/data.bin";
        assertSameBytes(get(reader, artifact, ALPHA), get(finisher, artifact, ALPHA));
        HttpResponse<byte[]> part = get(reader, artifact, ALPHA, "Range", "bytes=100-4195");
        assertThat(part.statusCode()).isEqualTo(206);
        assertThat(part.headers().firstValue("Content-Range")).hasValue("bytes 100-4195/200000");
        assertSameBytes(part, get(finisher, artifact, ALPHA, "Range", "bytes=100-4195"));

        // Another tenant is told what it is told of an id nobody has, on each relayed read.
        for (String path : List.of(log, artifact, "/v1/dispatches/" + running + "/events")) {
            HttpResponse<byte[]> theirs = get(other, path, BETA);
            HttpResponse<byte[]> unknown =
                    get(other, path.replace(finished, "nobody").replace(running, "nobody"), BETA);
            assertThat(theirs.statusCode()).isEqualTo(404);
            assertThat(JSON.readTree(theirs.body()).path("type"))
                    .isEqualTo(JSON.readTree(unknown.body()).path("type"));
        }

        // The running dispatch's events, followed through the other replica, and a cancel sent there.
        List<String> events = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> stream = follow(other, "/v1/dispatches/" + running + "/events", events);
        // The first relayed stream of a replica started without warm-up: its first request is slow on a loaded machine.
        await().atMost(Duration.ofSeconds(30)).until(() -> events.stream().anyMatch(e -> e.contains("\"running\"")));
        HttpResponse<byte[]> beta = send(other, "DELETE", "/v1/dispatches/" + running, BETA);
        assertThat(beta.statusCode()).isEqualTo(404);
        Instant asked = Instant.now();
        HttpResponse<byte[]> cancel = send(other, "DELETE", "/v1/dispatches/" + running, ALPHA);
        assertThat(cancel.statusCode()).as(text(cancel)).isEqualTo(202);
        JsonNode ended = awaitStatus(other, running, "cancelled");
        assertThat(Duration.between(asked, Instant.now())).isLessThan(Duration.ofSeconds(8));
        assertThat(ended.path("result").path("exitCode").asInt()).isIn(137, 143);
        assertThat(engine.managed().stream().filter(c -> c.dispatchId().equals("alpha." + running)))
                .allMatch(ManagedContainer::stopped);
        stream.get(10, TimeUnit.SECONDS);
        assertThat(events).anyMatch(e -> e.contains("\"cancelled\""));

        // Relayed reads crossed the wire signed by the replicas, for alpha, and never with the client's token.
        TcpProxy toFinisher = finisher == a ? relayA : relayB;
        String wire = toFinisher.sent();
        assertThat(wire)
                .contains("GET " + log + "?offset=1000&limit=70000 HTTP/1.1\r\n")
                .contains(RelaySignatures.HEADER + ": v1;tenant=alpha;")
                .doesNotContain(ALPHA)
                .doesNotContainIgnoringCase("authorization:")
                .doesNotContain(RelaySignatures.UNSIGNED);

        // A relay replayed as it crossed the wire, forged, or made of a client's token alone reads nothing.
        String relayed =
                wire.substring(wire.indexOf("GET " + log), wire.indexOf("\r\n\r\n", wire.indexOf("GET " + log)) + 4);
        assertThat(raw(finisher, relayed)).startsWith("HTTP/1.1 401 ");
        assertThat(raw(finisher, relayed.replace("offset=0&", "offset=5&"))).startsWith("HTTP/1.1 401 ");
        RelaySignatures stranger = RelaySignatures.of(
                Optional.of(List.of("Rm9yZ2VkIHJlbGF5IHNlY3JldCBvZiAzMiBieXRlcyE=")), "stranger", Clock.systemUTC());
        String target = log + "?limit=100";
        List<HttpResponse<byte[]>> refused = List.of(
                get(finisher, target, ALPHA, RelaySignatures.UNSIGNED, "reach-a"),
                getAnonymously(finisher, target, RelaySignatures.UNSIGNED, "reach-a"),
                get(
                        finisher,
                        target,
                        ALPHA,
                        RelaySignatures.HEADER,
                        stranger.sign("GET", target, "alpha", finisher == a ? "reach-a" : "reach-b")
                                .orElseThrow()),
                getAnonymously(
                        finisher,
                        target,
                        RelaySignatures.HEADER,
                        "v1;tenant=alpha;ts=" + Instant.now().getEpochSecond() + ";nonce=AAAAAAAAAAAAAAAAAAAAAAAA;sig="
                                + "A".repeat(43)));
        for (HttpResponse<byte[]> answer : refused) {
            assertThat(answer.statusCode()).as(text(answer)).isEqualTo(401);
            assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(problem(answer)).isEqualTo("401 unauthorized");
            assertThat(text(answer)).doesNotContain("0123456789abcdef");
        }
        // Signed with the replicas' secret, the relay acts for the tenant it names: alpha's bytes, beta's 404.
        RelaySignatures replica = RelaySignatures.of(Optional.of(List.of(RELAY_SECRET)), "test", Clock.systemUTC());
        String owner = finisher == a ? "reach-a" : "reach-b";
        HttpResponse<byte[]> asAlpha = getAnonymously(
                finisher,
                target,
                RelaySignatures.HEADER,
                replica.sign("GET", target, "alpha", owner).orElseThrow());
        assertSameBytes(asAlpha, get(finisher, target, ALPHA));
        HttpResponse<byte[]> asBeta = getAnonymously(
                finisher,
                target,
                RelaySignatures.HEADER,
                replica.sign("GET", target, "beta", owner).orElseThrow());
        assertThat(problem(asBeta)).isEqualTo("404 not-found");

        // A replica without the secret relays nothing, says so at start, and answers 503.
        Map<String, String> unsigned = replica("reach-c");
        try (WorkerProcess c = WorkerProcess.start(unsigned)) {
            assertThat(c.logText()).containsPattern("WARN .*sluice.worker.relay-secrets is not set");
            HttpResponse<byte[]> answer = get(c, log + "?limit=100", ALPHA);
            assertThat(problem(answer)).as(text(answer)).isEqualTo("503 owner-unreachable");
            assertThat(text(answer)).contains("sluice.worker.relay-secrets");
        }

        // With the finisher dead, its log and artifact went with it.
        finisher.kill();
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    assertThat(problem(get(reader, log, ALPHA))).isEqualTo("410 log-gone");
                    assertThat(problem(get(reader, artifact, ALPHA))).isEqualTo("410 artifact-gone");
                });
    }

    private static String submit(WorkerClient worker, String id, String script) throws IOException {
        Map<String, Object> request = new HashMap<>(WorkerClient.script(script));
        request.put("id", id);
        request.put("secrets", Map.of("TOKEN", SECRET));
        HttpResponse<byte[]> answer = exchange(HttpRequest.newBuilder(URI.create(worker.url("/v1/dispatches")))
                .header("Authorization", "Bearer " + ALPHA)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(request))));
        assertThat(answer.statusCode()).as(text(answer)).isEqualTo(202);
        return id;
    }

    private static JsonNode awaitStatus(WorkerClient worker, String id, String status) {
        return await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .ignoreExceptions()
                .until(
                        () -> JSON.readTree(
                                get(worker, "/v1/dispatches/" + id, ALPHA).body()),
                        r -> status.equals(r.path("status").asText()));
    }

    /** The replica whose engine runs the dispatch, as its container's labels say. */
    private static WorkerProcess runnerOf(ContainerRuntime engine, String id, List<WorkerProcess> replicas) {
        String worker = engine.managed().stream()
                .filter(c -> c.dispatchId().equals("alpha." + id))
                .findFirst()
                .orElseThrow()
                .workerId();
        return worker.equals("reach-a") ? replicas.get(0) : replicas.get(1);
    }

    private static void assertSameBytes(HttpResponse<byte[]> relayed, HttpResponse<byte[]> direct) {
        assertThat(relayed.statusCode()).isEqualTo(direct.statusCode());
        assertThat(relayed.body().length).isEqualTo(direct.body().length);
        assertThat(Digests.sha256(relayed.body())).isEqualTo(Digests.sha256(direct.body()));
        assertThat(relayed.body().length).isPositive();
    }

    private static String problem(HttpResponse<byte[]> answer) throws IOException {
        String type = JSON.readTree(answer.body()).path("type").asText();
        return answer.statusCode() + " " + type.substring(type.lastIndexOf(':') + 1);
    }

    /** Reads the event stream on a thread of its own until it ends, keeping each data line. */
    private static CompletableFuture<Void> follow(WorkerClient worker, String path, List<String> events) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(worker.url(path)))
                .header("Authorization", "Bearer " + ALPHA)
                .header("Accept", "text/event-stream")
                .build();
        return HTTP.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream())
                .thenAcceptAsync(response -> {
                    try (BufferedReader lines =
                            new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = lines.readLine()) != null) {
                            if (line.startsWith("data:")) {
                                events.add(line);
                            }
                        }
                    } catch (IOException e) {
                        events.add("broken: " + e);
                    }
                });
    }

    private static HttpResponse<byte[]> get(WorkerClient worker, String path, String token, String... headers)
            throws IOException {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(worker.url(path))).header("Authorization", "Bearer " + token);
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return exchange(request.GET());
    }

    /** A GET with no token, with the given headers. */
    private static HttpResponse<byte[]> getAnonymously(WorkerClient worker, String path, String... headers)
            throws IOException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(worker.url(path)));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return exchange(request.GET());
    }

    /** Sends {@code head}, a request's bytes as another client sent them, and returns the answer's head. */
    private static String raw(WorkerClient worker, String head) throws IOException {
        URI uri = URI.create(worker.url(""));
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout(20_000);
            socket.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
            byte[] answer = socket.getInputStream().readNBytes(12 + 3);
            return new String(answer, StandardCharsets.ISO_8859_1);
        }
    }

    private static HttpResponse<byte[]> send(WorkerClient worker, String method, String path, String token)
            throws IOException {
        return exchange(HttpRequest.newBuilder(URI.create(worker.url(path)))
                .header("Authorization", "Bearer " + token)
                .method(method, HttpRequest.BodyPublishers.noBody()));
    }

    private static HttpResponse<byte[]> exchange(HttpRequest.Builder request) throws IOException {
        try {
            return HTTP.send(request.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private static String text(HttpResponse<byte[]> answer) {
        return new String(answer.body(), StandardCharsets.UTF_8);
    }
}
