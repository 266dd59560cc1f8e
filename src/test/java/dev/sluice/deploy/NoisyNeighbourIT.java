package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.Digests;
import dev.sluice.testsupport.Dispatches;
import dev.sluice.testsupport.ExpectedStream;
import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.TestDocker;
import dev.sluice.testsupport.TestRegistry;
import dev.sluice.testsupport.WorkerProcess;

/**
 * Issue 38, part 4 (ADR 0073): one tenant ({@code noisy}) saturates each pool
 * the worker shares in turn, against the packaged worker started as shipped,
 * while another ({@code quiet}) keeps reading and dispatching. The pools: MCP
 * waits (the attack: 250 {@code dispatch_subagent} replays of one
 * running dispatch with {@code wait: 40}), log reads (twelve at once that
 * never read their body), artifacts (eight 8 MiB files past the tenant's share),
 * callback senders (a receiver that never answers), image pulls (a registry
 * that never answers), and kept workspaces (queued dispatches' 1 MiB
 * workspaces past the tenant's share). Throughout, the quiet tenant's reads
 * ({@code GET /v1/dispatches}, {@code GET /v1/dispatches/{id}}, a log range,
 * an MCP {@code get_result}) and its dispatches ({@code POST
 * /v1/dispatches}) are timed, and each pool's p99 must stay under one
 * second; every quiet dispatch finishes byte-exact (stdout's length and
 * SHA-256), its callback is delivered, its pull is not kept waiting, its
 * artifact is still served whole, and its workspace is taken. The numbers
 * are printed per pool.
 *
 * <p>It needs the test registry (scripts/registry.sh writes
 * target/registry.env) for the quiet tenant's pull.
 */
class NoisyNeighbourIT {

    private static final String NOISY = "noisy-token-0123456789";
    private static final String QUIET = "quiet-token-0123456789";
    /** The attack of the issue: 250 MCP calls replaying one running dispatch, each waiting 40 s. */
    private static final int MCP_WAITS = 250;
    /** Past the worker's eight log reads here, so that without a share per tenant none is left to another. */
    private static final int LOG_READS = 12;
    /** Lines of 100 bytes: 4.4 MB, so a 4 MiB range is full and outlasts the sockets' buffers. */
    private static final int LINES = 44_000;

    private static final int MIB = 1 << 20;
    private static final Duration P99_BOUND = Duration.ofSeconds(1);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> TERMINAL = Set.of("succeeded", "failed", "timed_out", "cancelled", "error");

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final List<String> failures = new ArrayList<>();
    private final Map<String, List<Long>> latencies = new LinkedHashMap<>();
    private final AtomicInteger quietDispatches = new AtomicInteger();
    private final List<QuietDispatch> posted = new ArrayList<>();

    private WorkerProcess worker;
    private String quietLog;
    private String noisyLog;

    /** A dispatch of the quiet tenant, and the stdout it must come back with. */
    private record QuietDispatch(String id, ExpectedStream stdout) {}

    @Test
    void anotherTenantsReadsAndDispatchesStayQuickWhileOneTenantSaturatesEachPool() throws Exception {
        long began = System.nanoTime();
        Properties registry = TestRegistry.env();
        ServerSocket stalling = TestRegistry.stalling();
        Path data = WorkerProcess.freshDataDir("noisy");
        Map<String, String> env = WorkerProcess.baseEnvironment(data, "sluice-noisy");
        env.put("SLUICE_API_TOKENS", "noisy:" + NOISY + ",quiet:" + QUIET);
        env.put("SLUICE_DISPATCH_MAX_RUNNING", "10");
        env.put("SLUICE_TENANTS_NOISY_MAX_RUNNING", "4");
        env.put("SLUICE_API_MAX_LOG_READS", "8");
        env.put("SLUICE_API_MAX_LOG_READS_PER_TENANT", "4");
        // Each pool small enough for one tenant to fill in seconds, its share per tenant beside it.
        env.put("SLUICE_ARTIFACTS_DIR", data.resolve("artifacts").toString());
        env.put("SLUICE_ARTIFACTS_MAX_FILE_SIZE", "8M");
        env.put("SLUICE_ARTIFACTS_MAX_TOTAL_SIZE", "8M");
        env.put("SLUICE_ARTIFACTS_MAX_DISK", "40M");
        env.put("SLUICE_ARTIFACTS_MAX_DISK_PER_TENANT", "16M");
        env.put("SLUICE_CALLBACK_MAX_CONCURRENT", "8");
        env.put("SLUICE_CALLBACK_MAX_CONCURRENT_PER_TENANT", "4");
        env.put("SLUICE_CALLBACK_ATTEMPT_TIMEOUT", "30s");
        env.put("SLUICE_IMAGES_PULL_POLICY", "always");
        // Registries on loopback run only where a pattern names them literally (ADR 0075).
        env.put(
                "SLUICE_IMAGES_ALLOWED",
                TestDocker.AGENT_IMAGE + "," + registry.getProperty("SLUICE_TEST_REGISTRY") + "/*,127.0.0.1:"
                        + stalling.getLocalPort() + "/*");
        env.put("SLUICE_IMAGES_PULL_TIMEOUT", "60s");
        env.put("SLUICE_IMAGES_DOCKER_CONFIG", dockerConfig(data, registry).toString());
        env.put("SLUICE_WORKSPACE_MAX_KEPT_BYTES", "8M");
        env.put("SLUICE_WORKSPACE_MAX_KEPT_BYTES_PER_TENANT", "3M");
        try (WorkerProcess started = WorkerProcess.startAsShipped(env)) {
            worker = started;
            Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> worker.probeStatus("/q/health/ready") == 200);
            quietLog = quietDispatch().id();
            awaitQuiet(posted.get(0));
            noisyLog =
                    submit(NOISY, script("awk 'BEGIN { for (i = 0; i < " + LINES + "; i++) printf \"%099d\\n\", i }'"));
            awaitTerminal(NOISY, noisyLog, Duration.ofMinutes(2));

            mcpWaits();
            logReads();
            artifacts();
            callbacks();
            pulls(registry, stalling);
            workspaces();

            for (QuietDispatch d : posted) {
                awaitQuiet(d);
            }
            if (!worker.alive()) {
                failures.add("the worker exited; see " + worker.logPath());
            }
        } finally {
            stalling.close();
        }
        report(began);
        assertThat(failures).as("what went wrong for the quiet tenant").isEmpty();
    }

    /**
     * The attack: 250 {@code dispatch_subagent} calls replaying one
     * running dispatch (no queue place each) with {@code wait: 40}. The quiet
     * tenant is timed once they all wait (a further replay is refused past the
     * tenant's share of 250), rather than after a pause for them to arrive. They
     * are answered when the dispatch ends, cancelled here once the quiet tenant
     * has been timed.
     */
    private void mcpWaits() throws Exception {
        Mcp noisy = new Mcp(NOISY);
        Map<String, Object> sleeper = new HashMap<>(script("sleep 600"));
        sleeper.put("id", "mcp-sleeper");
        JsonNode first = noisy.call("dispatch_subagent", sleeper);
        assertThat(first.path("isError").asBoolean()).as(first.toString()).isFalse();
        Map<String, Object> replay = new HashMap<>(sleeper);
        replay.put("wait", 40);
        List<CompletableFuture<HttpResponse<String>>> waits = new ArrayList<>();
        for (int i = 0; i < MCP_WAITS; i++) {
            waits.add(noisy.callAsync("dispatch_subagent", replay, Duration.ofSeconds(90)));
        }
        // They have all reached the worker once the tenant's share of waits (max-waits-per-tenant, 250) is
        // full: one more is refused at once. One that is not refused waits as they do, and is answered with them.
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        for (boolean full = false; !full; ) {
            assertThat(System.nanoTime() - deadline)
                    .as("the noisy tenant's waits fill its share within a minute")
                    .isNegative();
            CompletableFuture<HttpResponse<String>> more =
                    noisy.callAsync("dispatch_subagent", replay, Duration.ofSeconds(90));
            try {
                full = Mcp.result(more.get(2, TimeUnit.SECONDS)).toString().contains("too-many-waits");
            } catch (TimeoutException e) {
                waits.add(more);
            }
        }
        probeQuiet("mcp waits", Duration.ofSeconds(10));
        HttpResponse<String> cancelled = send(NOISY, "DELETE", "/v1/dispatches/mcp-sleeper", null);
        assertThat(cancelled.statusCode()).as(cancelled.body()).isIn(200, 202);
        int answered = 0;
        for (CompletableFuture<HttpResponse<String>> wait : waits) {
            HttpResponse<String> r = wait.get(2, TimeUnit.MINUTES);
            JsonNode answer = Mcp.result(r);
            if (r.statusCode() == 200 && !answer.path("isError").asBoolean(true)) {
                answered++;
            }
        }
        System.out.printf("mcp waits: %d of %d replays answered%n", answered, waits.size());
    }

    /**
     * Twelve reads of a 4 MiB range, all at once, that never read past the
     * status line: each holds its slot until its write times out. The worker
     * serves eight at once here, four of a tenant's.
     */
    private void logReads() throws Exception {
        List<Socket> held = new ArrayList<>();
        int served = 0;
        int refused = 0;
        try {
            URI api = URI.create(worker.url("/"));
            for (int i = 0; i < LOG_READS; i++) {
                Socket socket = new Socket();
                held.add(socket);
                socket.setReceiveBufferSize(4096);
                socket.connect(new java.net.InetSocketAddress(api.getHost(), api.getPort()), 5000);
                socket.setSoTimeout(60_000);
                OutputStream out = socket.getOutputStream();
                out.write(("GET /v1/dispatches/" + noisyLog + "/logs/stdout?offset=0&limit=" + 4 * MIB
                                + " HTTP/1.1\r\nHost: " + api.getHost() + "\r\nAuthorization: Bearer " + NOISY
                                + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
            for (Socket socket : held) {
                String status = statusLine(socket.getInputStream());
                if (status.contains(" 200 ")) {
                    served++;
                } else if (status.contains(" 429 ")) {
                    refused++;
                } else {
                    failures.add("log reads: noisy's read answered " + status);
                }
            }
            System.out.printf("log reads: noisy holds %d, was refused %d%n", served, refused);
            probeQuiet("log reads", Duration.ofSeconds(8));
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
    }

    /**
     * The quiet tenant keeps a 4 MiB artifact; the noisy one then keeps eight
     * of 8 MiB, past its share and past the worker's quota. The quiet
     * tenant's artifact is still served whole.
     */
    private void artifacts() throws Exception {
        String quietArtifact = submit(
                QUIET,
                script("mkdir -p /sluice/out/artifacts && yes quiet artifact | head -c " + 4 * MIB
                        + " > /sluice/out/artifacts/quiet.bin"));
        JsonNode kept = awaitTerminal(QUIET, quietArtifact, Duration.ofMinutes(1));
        assertThat(kept.at("/result/artifacts/0/name").asText())
                .as(kept.toString())
                .isEqualTo("quiet.bin");
        List<String> noisy = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            noisy.add(submit(
                    NOISY,
                    script("mkdir -p /sluice/out/artifacts && yes noisy " + i + " | head -c " + 8 * MIB
                            + " > /sluice/out/artifacts/noisy.bin")));
        }
        CompletableFuture<Void> filling = CompletableFuture.runAsync(() -> {
            for (String id : noisy) {
                awaitTerminal(NOISY, id, Duration.ofMinutes(2));
            }
        });
        probeQuiet("artifacts", Duration.ofSeconds(5));
        filling.get(3, TimeUnit.MINUTES);

        HttpResponse<byte[]> artifact = http.send(
                request(QUIET, "/v1/dispatches/" + quietArtifact + "/artifacts/quiet.bin")
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        ExpectedStream expected = ExpectedStream.repeatedLine("quiet artifact", 4 * MIB);
        if (artifact.statusCode() != 200
                || !expected.matches(artifact.body().length, Digests.sha256(artifact.body()))) {
            failures.add("artifacts: the quiet tenant's artifact answered " + artifact.statusCode() + " with "
                    + artifact.body().length + " bytes"
                    + (artifact.statusCode() == 200 ? "" : ": " + new String(artifact.body(), StandardCharsets.UTF_8)));
        }
    }

    /**
     * The noisy tenant's results go to a receiver that never answers (each
     * attempt held for the 30 s attempt timeout); the quiet tenant's result
     * must still be delivered at once.
     */
    private void callbacks() throws Exception {
        try (Receiver hanging = Receiver.on("127.0.0.1").otherwise(new Receiver.Hang());
                Receiver quick = Receiver.on("127.0.0.1")) {
            List<String> noisy = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                Map<String, Object> request = new HashMap<>(script("true"));
                request.put("callbackUrl", hanging.url("/noisy/" + i));
                noisy.add(submit(NOISY, request));
            }
            for (String id : noisy) {
                awaitTerminal(NOISY, id, Duration.ofMinutes(1));
            }
            Map<String, Object> request = new HashMap<>(script("printf 'quiet callback'"));
            request.put("callbackUrl", quick.url("/quiet"));
            String id = submit(QUIET, request);
            awaitTerminal(QUIET, id, Duration.ofMinutes(1));
            long finished = System.nanoTime();
            probeQuiet("callbacks", Duration.ofSeconds(3));
            JsonNode record = Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(200))
                    .until(
                            () -> JSON.readTree(send(QUIET, "GET", "/v1/dispatches/" + id, null)
                                    .body()),
                            r -> "delivered".equals(r.at("/callback/state").asText())
                                    || System.nanoTime() - finished > TimeUnit.SECONDS.toNanos(45));
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - finished);
            System.out.printf(
                    "callbacks: noisy's receiver holds %d connections; quiet's result %s %d ms after it finished%n",
                    hanging.connections(), record.at("/callback/state").asText(), tookMs);
            if (!"delivered".equals(record.at("/callback/state").asText()) || tookMs > 10_000) {
                failures.add("callbacks: the quiet tenant's result was "
                        + record.at("/callback/state").asText() + " " + tookMs + " ms after it finished");
            }
        }
    }

    /**
     * The noisy tenant's dispatches name three images of a registry that
     * accepts connections and never answers: each pull holds its slot until
     * the 60 s pull timeout, or until the engine gives up (some 20 s here).
     * The quiet tenant's dispatch pulls the agent image from the test
     * registry, and must not wait for them: it ends within 12 s, 3 of which
     * the quiet tenant's calls are timed.
     */
    private void pulls(Properties registry, ServerSocket stalling) throws Exception {
        for (String image : List.of("a", "b", "c")) {
            Map<String, Object> request = new HashMap<>(script("true"));
            request.put("image", "127.0.0.1:" + stalling.getLocalPort() + "/noisy/" + image + ":1");
            request.put("imagePullPolicy", "if-not-present");
            submit(NOISY, request);
        }
        Thread.sleep(1000); // the noisy pulls start
        Map<String, Object> request = new HashMap<>(script("printf 'quiet pull'"));
        request.put(
                "image",
                registry.getProperty("SLUICE_TEST_REGISTRY") + "/" + registry.getProperty("SLUICE_TEST_REGISTRY_IMAGE")
                        + ":test");
        request.put("imagePullPolicy", "always");
        long start = System.nanoTime();
        String id = submit(QUIET, request);
        probeQuiet("pulls", Duration.ofSeconds(3));
        JsonNode record = awaitTerminal(QUIET, id, Duration.ofMinutes(2));
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        System.out.printf(
                "pulls: quiet's pulled dispatch %s in %d ms%n",
                record.path("status").asText(), tookMs);
        if (!"succeeded".equals(record.path("status").asText())
                || !"quiet pull".equals(record.at("/result/stdout").asText())
                || tookMs > 12_000) {
            failures.add("pulls: the quiet tenant's dispatch ended "
                    + record.path("status").asText() + " " + record.at("/result/error") + " after " + tookMs
                    + " ms");
        }
    }

    /**
     * The noisy tenant's running slots are taken by sleepers, and it queues
     * dispatches with 1 MiB workspaces, kept on the worker's disk until they
     * run: past its share it is refused with 429. The quiet tenant's
     * workspace is still taken, and arrives whole.
     */
    private void workspaces() throws Exception {
        for (int i = 0; i < 4; i++) {
            submit(NOISY, script("sleep 600"));
        }
        byte[] file = new byte[MIB];
        for (int i = 0; i < file.length; i++) {
            file[i] = (byte) ('a' + i % 26);
        }
        int kept = 0;
        HttpResponse<String> refusal = null;
        for (int i = 0; i < 8 && refusal == null; i++) {
            Map<String, Object> request = new HashMap<>(script("cat data.txt"));
            request.put("workspace", Dispatches.oneFileWorkspace("data.txt", file));
            HttpResponse<String> r = send(NOISY, "POST", "/v1/dispatches", JSON.writeValueAsString(request));
            if (r.statusCode() == 202) {
                kept++;
            } else {
                refusal = r;
            }
        }
        System.out.printf(
                "workspaces: noisy keeps %d, then %s%n",
                kept, refusal == null ? "no refusal" : refusal.statusCode() + " " + refusal.body());
        if (refusal == null
                || refusal.statusCode() != 429
                || !JSON.readTree(refusal.body()).path("type").asText().endsWith(":workspaces-full")
                || refusal.headers().firstValue("Retry-After").isEmpty()) {
            failures.add("workspaces: the noisy tenant kept " + kept + " MiB of workspaces past its share, then "
                    + (refusal == null ? "nothing" : refusal.statusCode() + " " + refusal.body()));
        }
        probeQuiet("workspaces", Duration.ofSeconds(3));
        byte[] mine = "quiet workspace\n".repeat(16_384).getBytes(StandardCharsets.UTF_8);
        Map<String, Object> request = new HashMap<>(script("cat data.txt"));
        request.put(
                "workspace",
                Map.of(
                        "files",
                        List.of(Map.of("path", "data.txt", "content", new String(mine, StandardCharsets.UTF_8)))));
        long start = System.nanoTime();
        HttpResponse<String> r = send(QUIET, "POST", "/v1/dispatches", JSON.writeValueAsString(request));
        latencies.get("workspaces").add(System.nanoTime() - start);
        if (r.statusCode() != 202) {
            failures.add("workspaces: the quiet tenant's workspace answered " + r.statusCode() + " " + r.body());
            return;
        }
        posted.add(new QuietDispatch(JSON.readTree(r.body()).path("id").asText(), ExpectedStream.of(mine)));
    }

    /**
     * The quiet tenant's calls, one after another for {@code during}: each
     * read and dispatch timed under {@code pool}; a dispatch every second.
     */
    private void probeQuiet(String pool, Duration during) throws Exception {
        List<Long> times = latencies.computeIfAbsent(pool, p -> new ArrayList<>());
        Mcp quiet = new Mcp(QUIET);
        long end = System.nanoTime() + during.toNanos();
        long nextDispatch = 0;
        while (System.nanoTime() < end) {
            times.add(timed(pool, "list", () -> send(QUIET, "GET", "/v1/dispatches?limit=20", null)));
            times.add(timed(pool, "get", () -> send(QUIET, "GET", "/v1/dispatches/" + quietLog, null)));
            times.add(timed(
                    pool,
                    "log",
                    () -> send(
                            QUIET, "GET", "/v1/dispatches/" + quietLog + "/logs/stdout?offset=10&limit=4096", null)));
            times.add(timed(
                    pool,
                    "mcp get_result",
                    () -> quiet.callAsync("get_result", Map.of("id", quietLog), Duration.ofSeconds(60))
                            .get()));
            if (System.nanoTime() >= nextDispatch) {
                long start = System.nanoTime();
                quietDispatch();
                times.add(System.nanoTime() - start);
                nextDispatch = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            }
            Thread.sleep(50);
        }
    }

    @FunctionalInterface
    private interface Call {
        HttpResponse<String> send() throws Exception;
    }

    /** One call's time; an answer other than 200 (a 429 too), or none, is a failure of the quiet tenant's. */
    private long timed(String pool, String what, Call call) {
        long start = System.nanoTime();
        try {
            HttpResponse<String> r = call.send();
            if (r.statusCode() != 200) {
                failures.add(pool + ": quiet " + what + " answered " + r.statusCode() + " " + r.body());
            }
        } catch (Exception e) {
            failures.add(pool + ": quiet " + what + " got no answer: " + e);
        }
        return System.nanoTime() - start;
    }

    /** A dispatch of the quiet tenant that prints a stdout of its own, to be checked by its bytes. */
    private QuietDispatch quietDispatch() throws Exception {
        int n = quietDispatches.incrementAndGet();
        String line = "quiet dispatch " + n;
        long bytes = 20_000 + n;
        HttpResponse<String> r = send(
                QUIET,
                "POST",
                "/v1/dispatches",
                JSON.writeValueAsString(script("yes '" + line + "' | head -c " + bytes)));
        if (r.statusCode() != 202) {
            failures.add("quiet dispatch " + n + " answered " + r.statusCode() + " " + r.body());
            return new QuietDispatch(null, null);
        }
        QuietDispatch d = new QuietDispatch(
                JSON.readTree(r.body()).path("id").asText(), ExpectedStream.repeatedLine(line, bytes));
        posted.add(d);
        return d;
    }

    /** The quiet dispatch ended {@code succeeded} with exactly the stdout it printed. */
    private void awaitQuiet(QuietDispatch d) {
        JsonNode record = awaitTerminal(QUIET, d.id(), Duration.ofMinutes(2));
        ExpectedStream.Verdict verdict = d.stdout().check(record.path("result"), "stdout");
        if (!"succeeded".equals(record.path("status").asText()) || !verdict.isExact()) {
            failures.add(
                    "quiet dispatch " + d.id() + ": " + record.path("status").asText() + ", stdout " + verdict.bytes()
                            + " bytes, not the " + d.stdout().bytes() + " it printed");
        }
    }

    /** Prints each pool's p50, p99 and worst of the quiet tenant's calls, and fails the pools past the bound. */
    private void report(long began) {
        System.out.printf("%-16s %8s %8s %8s %8s%n", "pool", "calls", "p50 ms", "p99 ms", "max ms");
        latencies.forEach((pool, times) -> {
            List<Long> sorted = times.stream().sorted().toList();
            long p99 = percentile(sorted, 0.99);
            System.out.printf(
                    "%-16s %8d %8d %8d %8d%n",
                    pool,
                    sorted.size(),
                    TimeUnit.NANOSECONDS.toMillis(percentile(sorted, 0.50)),
                    TimeUnit.NANOSECONDS.toMillis(p99),
                    TimeUnit.NANOSECONDS.toMillis(sorted.get(sorted.size() - 1)));
            if (p99 >= P99_BOUND.toNanos()) {
                failures.add(pool + ": the quiet tenant's p99 was " + TimeUnit.NANOSECONDS.toMillis(p99) + " ms");
            }
        });
        System.out.printf(
                "noisy neighbour: %d quiet dispatches, %d s in all%n",
                posted.size(), TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began));
    }

    private static long percentile(List<Long> sorted, double p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
    }

    /** A script in the test image, which the engine holds: never pulled, whatever the worker's pull policy. */
    private static Map<String, Object> script(String script) {
        return Map.of(
                "image",
                TestDocker.AGENT_IMAGE,
                "imagePullPolicy",
                "if-not-present",
                "command",
                List.of("sh", "-c", script));
    }

    private String submit(String token, Map<String, Object> request) throws Exception {
        HttpResponse<String> r = send(token, "POST", "/v1/dispatches", JSON.writeValueAsString(request));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        return JSON.readTree(r.body()).path("id").asText();
    }

    private JsonNode awaitTerminal(String token, String id, Duration within) {
        return Awaitility.await()
                .atMost(within)
                .pollDelay(Duration.ZERO) // a dispatch already ended is not waited for
                .pollInterval(Duration.ofMillis(250))
                .ignoreExceptions()
                .until(
                        () -> JSON.readTree(
                                send(token, "GET", "/v1/dispatches/" + id, null).body()),
                        n -> TERMINAL.contains(n.path("status").asText()));
    }

    private HttpRequest.Builder request(String token, String path) {
        return HttpRequest.newBuilder(URI.create(worker.url(path)))
                .header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(60));
    }

    private HttpResponse<String> send(String token, String method, String path, String json)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = request(token, path);
        b = json == null
                ? b.method(method, HttpRequest.BodyPublishers.noBody())
                : b.header("Content-Type", "application/json")
                        .method(method, HttpRequest.BodyPublishers.ofString(json));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The first line of an HTTP answer, read byte by byte so that nothing after it is. */
    private static String statusLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
            line.append((char) c);
        }
        return line.toString();
    }

    /** A Docker config.json with the test registry's credentials, for the worker's pulls. */
    private static Path dockerConfig(Path data, Properties registry) throws IOException {
        String auth = Base64.getEncoder()
                .encodeToString((registry.getProperty("SLUICE_TEST_REGISTRY_USER") + ":"
                                + registry.getProperty("SLUICE_TEST_REGISTRY_PASSWORD"))
                        .getBytes(StandardCharsets.UTF_8));
        Path config = data.resolve("docker-config.json");
        Files.writeString(
                config,
                JSON.writeValueAsString(
                        Map.of("auths", Map.of(registry.getProperty("SLUICE_TEST_REGISTRY"), Map.of("auth", auth)))));
        return config;
    }

    /**
     * A session of the MCP server over Streamable HTTP, as any client speaks it:
     * JSON-RPC POSTs under the session the {@code initialize} answer named.
     */
    private final class Mcp {

        private final String token;
        private final String session;
        private final AtomicInteger ids = new AtomicInteger();

        Mcp(String token) throws Exception {
            this.token = token;
            HttpResponse<String> init = post(
                            request(
                                    "initialize",
                                    Map.of(
                                            "protocolVersion",
                                            "2025-06-18",
                                            "capabilities",
                                            Map.of(),
                                            "clientInfo",
                                            Map.of("name", "noisy-neighbour", "version", "1"))),
                            null,
                            Duration.ofSeconds(30))
                    .get();
            assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
            this.session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
            post(Map.of("jsonrpc", "2.0", "method", "notifications/initialized"), session, Duration.ofSeconds(30))
                    .get();
        }

        /** A tool's result: {@code isError} and its {@code content}. */
        JsonNode call(String tool, Map<String, Object> arguments) throws Exception {
            return result(callAsync(tool, arguments, Duration.ofSeconds(60)).get());
        }

        CompletableFuture<HttpResponse<String>> callAsync(String tool, Map<String, Object> arguments, Duration within) {
            return post(request("tools/call", Map.of("name", tool, "arguments", arguments)), session, within);
        }

        /** A JSON-RPC request of this session, with an id of its own. */
        private Map<String, Object> request(String method, Map<String, Object> params) {
            return Map.of("jsonrpc", "2.0", "id", ids.incrementAndGet(), "method", method, "params", params);
        }

        static JsonNode result(HttpResponse<String> r) throws IOException {
            return JSON.readTree(r.body()).path("result");
        }

        private CompletableFuture<HttpResponse<String>> post(
                Map<String, Object> message, String session, Duration within) {
            try {
                HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(worker.url("/mcp")))
                        .header("Authorization", "Bearer " + token)
                        .header("Content-Type", "application/json")
                        .header("Accept", "application/json, text/event-stream")
                        .timeout(within)
                        .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(message)));
                if (session != null) {
                    b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18");
                }
                return http.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
    }

    static {
        Path.of("target").toFile().mkdirs();
    }
}
