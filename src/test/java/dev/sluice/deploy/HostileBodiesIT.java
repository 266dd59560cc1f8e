package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.Digests;
import dev.sluice.testsupport.Dispatches;
import dev.sluice.testsupport.TestDocker;
import dev.sluice.testsupport.WorkerProcess;

/**
 * Issue 38, part 3: no request body takes the heap. Against the packaged
 * worker started as shipped (deploy/jvm.options: {@code -Xmx512m}, exit on
 * running out of memory), at full size, one tenant sends the bodies that
 * exhausted the heap before bodies were bounded while read: three concurrent
 * 11 MiB groups of four million members, three concurrent 11 MiB
 * {@code metadata} of four million empty arrays, nesting 100,000 deep (REST
 * and MCP), the same groups as MCP {@code dispatch_group} arguments, and 16
 * concurrent workspaces of 12 MiB. Each answer is one this test names, never a
 * 5xx or a stack trace, and nothing is created by a refused body: the groups
 * and the metadata 413, 422 naming {@code dispatches} or {@code metadata}, or
 * 429 past the decoding budget; the nesting 413 or 422 naming the field; the
 * workspaces 202 (then each runs with its file intact) or 429, and at least
 * one of them 429, since a tenant's share of the budget holds one at a time. Throughout,
 * another tenant's dispatches finish with their exact stdout (length and
 * SHA-256), and afterwards the worker is alive, ready, and its log holds no
 * OutOfMemoryError.
 */
class HostileBodiesIT {

    private static final String FLOOD = "bodies-flood-token-0123456789";
    private static final String FILES = "bodies-files-token-0123456789";
    private static final String OTHER = "bodies-other-token-0123456789";
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final int MEMBERS = 4_000_000;
    private static final int DEPTH = 100_000;
    private static final int WORKSPACES = 16;
    /** The largest workspace the worker takes (sluice.workspace.max-bytes, 8 MiB), as one file. */
    private static final int BLOB = 8 << 20;
    /** Input beside it, so that the body is near the 12 MiB request limit. */
    private static final int INPUT = (1 << 20) - 4096;

    /** What another tenant's dispatch prints: 2,000 numbered lines. */
    private static final byte[] BYSTANDER_OUTPUT = bystanderOutput();

    /** HTTP/1.1: each concurrent body on a connection of its own, as separate clients send them. */
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private static WorkerProcess worker;
    /** When the last attack's bodies were sent, and when the worker exited: how long it took them. */
    private static volatile Instant sent;

    private static volatile Instant exited;

    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private Bystander bystander;

    @BeforeAll
    static void startAsShipped() {
        Map<String, String> env = WorkerProcess.baseEnvironment(WorkerProcess.freshDataDir("bodies"), "sluice-bodies");
        env.put("SLUICE_API_TOKENS", "flood:" + FLOOD + ",files:" + FILES + ",other:" + OTHER);
        worker = WorkerProcess.startAsShipped(env);
        Thread watch = new Thread(
                () -> {
                    if (worker.awaitExit(Duration.ofHours(2))) {
                        exited = Instant.now();
                    }
                },
                "worker-exit");
        watch.setDaemon(true);
        watch.start();
        // Ready means the engine answered its ping: the engine this machine shares may be starting.
        Awaitility.await()
                .atMost(Duration.ofMinutes(1))
                .ignoreExceptions()
                .until(() -> worker.probeStatus("/q/health/ready") == 200);
    }

    @AfterAll
    static void stop() {
        if (worker != null) {
            worker.close();
        }
    }

    @BeforeEach
    void anotherTenantDispatchesThroughout() {
        bystander = new Bystander();
        bystander.start();
    }

    @AfterEach
    void theWorkerStayedUpAndTheOtherTenantWasServed() throws Exception {
        int before = bystander.finished.get();
        // One more of the other tenant's dispatches after the attack's answers, so it was served throughout.
        Awaitility.await()
                .atMost(Duration.ofMinutes(2))
                .until(() -> bystander.finished.get() > before + 1 || !bystander.failures.isEmpty());
        bystander.stop();
        assertThat(worker.alive())
                .as("the worker is up; it exited with %s, see %s", exitValue(), worker.logPath())
                .isTrue();
        assertThat(bystander.failures).as("the other tenant's dispatches").isEmpty();
        assertThat(bystander.finished.get()).isGreaterThanOrEqualTo(2);
        assertThat(worker.probeStatus("/q/health/ready")).isEqualTo(200);
        assertThat(worker.logText()).doesNotContain("OutOfMemoryError");
        assertThat(failures).as("answers other than those named").isEmpty();
    }

    private static String exitValue() {
        if (worker.alive()) {
            return "nothing";
        }
        Instant at = exited;
        return worker.exitValue()
                + (at == null || sent == null
                        ? ""
                        : " " + Duration.between(sent, at).toMillis() + " ms after the bodies were sent");
    }

    @Test
    void threeGroupsOfFourMillionMembersAreRefusedWhileRead() throws Exception {
        byte[] group = repeated("{\"dispatches\":[", "{}", MEMBERS, "]}");
        assertThat(group.length).isBetween(11 << 20, 12 << 20);
        refusedAtOnce("group", () -> post(FLOOD, "/v1/dispatch-groups", group), "dispatches");
    }

    @Test
    void threeMetadataOfFourMillionArraysAreRefusedWhileRead() throws Exception {
        byte[] body = repeated(
                "{\"image\":\"" + TestDocker.AGENT_IMAGE + "\",\"command\":[\"true\"],\"metadata\":{\"a\":[",
                "[]",
                MEMBERS,
                "]}}");
        assertThat(body.length).isBetween(11 << 20, 12 << 20);
        refusedAtOnce("metadata", () -> post(FLOOD, "/v1/dispatches", body), "metadata");
    }

    @Test
    void nestingAHundredThousandDeepIsRefusedNamingTheField() throws Exception {
        byte[] body = (("{\"image\":\"" + TestDocker.AGENT_IMAGE + "\",\"metadata\":{\"a\":")
                        + "[".repeat(DEPTH)
                        + "]".repeat(DEPTH)
                        + "}}")
                .getBytes(StandardCharsets.UTF_8);
        expect("nested dispatch", post(FLOOD, "/v1/dispatches", body), Set.of(413, 422), "metadata");
        byte[] group = (("{\"dispatches\":[{\"image\":\"" + TestDocker.AGENT_IMAGE + "\",\"command\":")
                        + "[".repeat(DEPTH)
                        + "]".repeat(DEPTH)
                        + "}]}")
                .getBytes(StandardCharsets.UTF_8);
        expect("nested group", post(FLOOD, "/v1/dispatch-groups", group), Set.of(413, 422), "dispatches.0.command");
        assertNothingCreated(FLOOD);
    }

    @Test
    void mcpArgumentsAreBoundedAsBodiesAre() throws Exception {
        String session = mcpSession(FLOOD);
        byte[] nested = toolCall(
                "dispatch_subagent",
                "{\"image\":\"" + TestDocker.AGENT_IMAGE + "\",\"metadata\":{\"a\":" + "[".repeat(DEPTH)
                        + "]".repeat(DEPTH) + "}}");
        expect("MCP nesting", mcp(FLOOD, session, nested), Set.of(413, 422), "metadata");

        ByteArrayOutputStream group = new ByteArrayOutputStream();
        group.writeBytes(
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"dispatch_group\",\"arguments\":"
                        .getBytes(StandardCharsets.UTF_8));
        group.writeBytes(repeated("{\"dispatches\":[", "{}", MEMBERS, "]}"));
        group.writeBytes("}}".getBytes(StandardCharsets.UTF_8));
        byte[] call = group.toByteArray();
        assertThat(call.length).isBetween(11 << 20, 12 << 20);
        refusedAtOnce("MCP group", () -> mcp(FLOOD, session, call), "dispatches");
    }

    @Test
    void sixteenWorkspacesOfTwelveMiBAtOnceAreDecodedWithinTheBudget() throws Exception {
        byte[] blob = new byte[BLOB];
        new Random(38).nextBytes(blob);
        String expected = Digests.sha256(blob) + "  /work/blob.bin\n";
        Map<String, Object> request = new HashMap<>();
        request.put("image", TestDocker.AGENT_IMAGE);
        request.put("command", List.of("sh", "-c", "cat > /dev/null; sha256sum /work/blob.bin"));
        request.put("input", "x".repeat(INPUT));
        request.put("workspace", Dispatches.oneFileWorkspace("blob.bin", blob));
        byte[] body = JSON.writeValueAsBytes(request);
        assertThat(body.length).isBetween(11 << 20, 12 << 20);

        List<HttpResponse<String>> answers = atOnce(WORKSPACES, () -> post(FILES, "/v1/dispatches", body));
        List<String> accepted = new ArrayList<>();
        for (HttpResponse<String> answer : answers) {
            expect("workspace", answer, Set.of(202, 429), null);
            if (answer.statusCode() == 202) {
                accepted.add(JSON.readTree(answer.body()).path("id").asText());
            }
        }
        assertThat(accepted).as("workspaces accepted").isNotEmpty();
        // Their headers reach the worker together, and a tenant's share of the decoding budget (16 MiB) holds
        // one 12 MiB body: the others are refused at once rather than decoded beside it.
        assertThat(answers.stream().filter(a -> a.statusCode() == 429))
                .as("workspaces refused past the tenant's decoding budget")
                .isNotEmpty();
        for (String id : accepted) {
            JsonNode record = awaitTerminal(FILES, id);
            assertThat(record.path("status").asText()).as(record.toString()).isEqualTo("succeeded");
            assertThat(record.at("/result/stdout").asText()).isEqualTo(expected);
        }
    }

    /**
     * Three of the attack's bodies at once, as three clients send them: each
     * refused as too large (413), past a bound naming {@code field} (422) or
     * past the decoding budget (429), and nothing created.
     */
    private void refusedAtOnce(String what, Call call, String field) throws Exception {
        for (HttpResponse<String> answer : atOnce(3, call)) {
            expect(what, answer, Set.of(413, 422, 429), field);
        }
        assertNothingCreated(FLOOD);
    }

    /**
     * The answer has one of the statuses named; a refusal is a problem detail
     * with no trace of the worker's insides, and a 422 names {@code field} (or
     * a field under it).
     */
    private void expect(String what, HttpResponse<String> answer, Set<Integer> allowed, String field) {
        int status = answer.statusCode();
        System.out.println("HostileBodiesIT: " + what + " answered " + status);
        String body = answer.body();
        if (!allowed.contains(status)) {
            failures.add(what + ": " + status + " " + abbreviated(body));
            return;
        }
        if (status == 202) {
            return;
        }
        if (!answer.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json")) {
            failures.add(what + ": " + status + " is not a problem detail: " + abbreviated(body));
        }
        if (body.contains("Exception") || body.contains("\tat ") || body.contains("com.fasterxml")) {
            failures.add(what + ": " + status + " shows the worker's insides: " + abbreviated(body));
        }
        if (status == 429 && answer.headers().firstValue("Retry-After").isEmpty()) {
            failures.add(what + ": 429 without Retry-After");
        }
        if (status == 422 && field != null) {
            try {
                String named = JSON.readTree(body).at("/errors/0/field").asText();
                if (!named.equals(field) && !named.startsWith(field + ".")) {
                    failures.add(what + ": 422 names " + named + ", not " + field);
                }
            } catch (Exception e) {
                failures.add(what + ": " + e);
            }
        }
    }

    private static String abbreviated(String body) {
        return body.length() > 300 ? body.substring(0, 300) + "..." : body;
    }

    private static void assertNothingCreated(String token) throws Exception {
        HttpResponse<String> listed = get(token, "/v1/dispatches?limit=1");
        assertThat(listed.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(listed.body()).path("items"))
                .as("dispatches created")
                .isEmpty();
    }

    /** {@code head}, then {@code unit} {@code n} times separated by commas, then {@code tail}. */
    private static byte[] repeated(String head, String unit, int n, String tail) {
        byte[] u = unit.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(head.length() + n * (u.length + 1) + tail.length());
        out.writeBytes(head.getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                out.write(',');
            }
            out.writeBytes(u);
        }
        out.writeBytes(tail.getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    @FunctionalInterface
    private interface Call {
        HttpResponse<String> send() throws Exception;
    }

    /** {@code n} calls at once; each answer, or the test fails on the first that could not be sent. */
    private static List<HttpResponse<String>> atOnce(int n, Call call) throws Exception {
        sent = Instant.now();
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            calls.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return call.send();
                } catch (Exception e) {
                    throw new IllegalStateException(
                            "a call could not be made; the worker exited with " + exitValue() + ", see "
                                    + worker.logPath(),
                            e);
                }
            }));
        }
        List<HttpResponse<String>> answers = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> c : calls) {
            answers.add(c.get(5, TimeUnit.MINUTES));
        }
        return answers;
    }

    private static HttpResponse<String> post(String token, String path, byte[] body) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(worker.url(path)))
                        .timeout(Duration.ofMinutes(2))
                        .header("Authorization", "Bearer " + token)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(String token, String path) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(worker.url(path)))
                        .timeout(Duration.ofSeconds(30))
                        .header("Authorization", "Bearer " + token)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** An MCP session over plain JSON-RPC, as McpServerIT's client opens one: initialize, then initialized. */
    private static String mcpSession(String token) throws Exception {
        byte[] initialize = ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                        + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"hostile-bodies\",\"version\":\"1\"}}}")
                .getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> opened = mcp(token, null, initialize);
        assertThat(opened.statusCode()).as(opened.body()).isEqualTo(200);
        String session = opened.headers().firstValue("Mcp-Session-Id").orElseThrow();
        HttpResponse<String> initialized = mcp(
                token,
                session,
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(initialized.statusCode()).isEqualTo(202);
        return session;
    }

    private static byte[] toolCall(String tool, String arguments) {
        return ("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                        + "\",\"arguments\":" + arguments + "}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static HttpResponse<String> mcp(String token, String session, byte[] body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(worker.url("/mcp")))
                .timeout(Duration.ofMinutes(2))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode awaitTerminal(String token, String id) {
        return Awaitility.await()
                .atMost(Duration.ofMinutes(3))
                .pollDelay(Duration.ZERO) // a dispatch already ended is not waited for
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () -> JSON.readTree(get(token, "/v1/dispatches/" + id).body()),
                        r -> Set.of("succeeded", "failed", "timed_out", "cancelled", "error")
                                .contains(r.path("status").asText()));
    }

    private static byte[] bystanderOutput() {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            lines.append(String.format("bystander %05d%n", i));
        }
        return lines.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The other tenant: one dispatch after another, each checked byte for byte
     * (its stdout's length and SHA-256, and the worker's digest of it), until
     * stopped.
     */
    private static final class Bystander {

        final AtomicInteger finished = new AtomicInteger();
        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread = new Thread(this::run, "bystander");

        void start() {
            thread.setDaemon(true);
            thread.start();
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join(Duration.ofMinutes(3).toMillis());
        }

        private void run() {
            String script = "awk 'BEGIN { for (i = 0; i < 2000; i++) printf \"bystander %05d\\n\", i }'";
            String request;
            try {
                request = JSON.writeValueAsString(
                        Map.of("image", TestDocker.AGENT_IMAGE, "command", List.of("sh", "-c", script)));
            } catch (Exception e) {
                failures.add(e.toString());
                return;
            }
            String expectedSha = Digests.sha256(BYSTANDER_OUTPUT);
            while (running.get()) {
                try {
                    HttpResponse<String> accepted =
                            post(OTHER, "/v1/dispatches", request.getBytes(StandardCharsets.UTF_8));
                    if (accepted.statusCode() != 202) {
                        failures.add("accepted: " + accepted.statusCode() + " " + abbreviated(accepted.body()));
                        return;
                    }
                    JsonNode record = awaitTerminal(
                            OTHER, JSON.readTree(accepted.body()).path("id").asText());
                    byte[] stdout = record.at("/result/stdout").asText().getBytes(StandardCharsets.UTF_8);
                    if (!"succeeded".equals(record.path("status").asText())
                            || stdout.length != BYSTANDER_OUTPUT.length
                            || !Digests.sha256(stdout).equals(expectedSha)
                            || !record.at("/result/stdoutDigest/sha256")
                                    .asText()
                                    .equals(expectedSha)
                            || record.at("/result/stdoutDigest/bytes").asLong() != BYSTANDER_OUTPUT.length) {
                        failures.add("not byte-exact: " + abbreviated(record.toString()));
                        return;
                    }
                    finished.incrementAndGet();
                } catch (Exception e) {
                    failures.add(e.toString());
                    return;
                }
            }
        }
    }
}
