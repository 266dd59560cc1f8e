package dev.sluice.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Debian's Prometheus server (scripts/prometheus.sh installs it), started by a
 * test on a free loopback port with a configuration and a data directory of
 * its own under target/, and killed when the test closes it: it scrapes one
 * worker's management port and evaluates the rule file it is given at the
 * interval the test names, as an operator's Prometheus would, only faster.
 */
public final class PrometheusServer implements AutoCloseable {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final String url;
    private final Path log;

    private PrometheusServer(Process process, String url, Path log) {
        this.process = process;
        this.url = url;
        this.log = log;
    }

    /**
     * Starts Prometheus scraping {@code /q/metrics} at {@code target}
     * ({@code host:port}) as job {@code sluice}, with the label {@code namespace}
     * that Kubernetes service discovery would give the pod's series, and
     * evaluating the plain rule file {@code rules}, each every {@code interval}
     * (a scrape may take as long). Returns once it is ready.
     */
    public static PrometheusServer start(String target, String namespace, Path rules, Duration interval) {
        Path dir = WorkerProcess.freshDataDir("prometheus");
        try {
            String every = interval.toMillis() + "ms";
            Path config = Files.writeString(dir.resolve("prometheus.yml"), """
                    global:
                      scrape_interval: %s
                      scrape_timeout: %s
                      evaluation_interval: %s
                    rule_files:
                      - %s
                    scrape_configs:
                      - job_name: sluice
                        metrics_path: /q/metrics
                        static_configs:
                          - targets: ['%s']
                            labels:
                              namespace: %s
                    """.formatted(
                            every, every, every, rules.toAbsolutePath(), target, namespace));
            String address = "127.0.0.1:" + WorkerProcess.freePort();
            Path log = dir.resolve("prometheus.log");
            Process process = new ProcessBuilder(
                            "prometheus",
                            "--config.file=" + config,
                            "--storage.tsdb.path=" + dir.resolve("data"),
                            "--web.listen-address=" + address)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            PrometheusServer server = new PrometheusServer(process, "http://" + address, log);
            server.awaitReady(Duration.ofSeconds(30));
            return server;
        } catch (IOException e) {
            throw new AssertionError(
                    "could not start prometheus (scripts/prometheus.sh installs it): " + e.getMessage(), e);
        }
    }

    private void awaitReady(Duration within) {
        Instant deadline = Instant.now().plus(within);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new AssertionError("prometheus exited at start-up: " + logText());
            }
            try {
                if (get("/-/ready").statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            pause(Duration.ofMillis(100));
        }
        close();
        throw new AssertionError("prometheus was not ready within " + within + ": " + logText());
    }

    /** {@code /api/v1/query} at {@code time}: the whole answer, {@code status} "success" or "error". */
    public JsonNode query(String expr, Instant time) throws IOException {
        return JSON.readTree(get("/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8) + "&time="
                        + time.truncatedTo(ChronoUnit.MILLIS))
                .body());
    }

    /**
     * Waits until Prometheus holds at least {@code count} samples of {@code series} from the last minute,
     * and returns when it did.
     */
    public Instant awaitSamples(String series, int count) throws IOException {
        return within30s("Prometheus had not " + count + " samples of " + series, Duration.ofMillis(200), () -> {
            Instant now = Instant.now();
            JsonNode held = query("count_over_time(" + series + "[1m])", now).at("/data/result/0/value/1");
            return !held.isMissingNode() && Double.parseDouble(held.asText()) >= count
                    ? Optional.of(now)
                    : Optional.empty();
        });
    }

    /**
     * Waits until Prometheus holds a sample of {@code series} scraped at
     * {@code moment} or later, and returns when that sample was scraped.
     */
    public Instant awaitScrapeAfter(String series, Instant moment) throws IOException {
        return within30s("Prometheus scraped no " + series + " after " + moment, Duration.ofMillis(100), () -> {
            JsonNode last =
                    query("max(timestamp(" + series + "))", Instant.now()).at("/data/result/0/value/1");
            if (last.isMissingNode()) {
                return Optional.empty();
            }
            Instant at = Instant.ofEpochMilli(Math.round(Double.parseDouble(last.asText()) * 1000));
            return at.isBefore(moment) ? Optional.empty() : Optional.of(at);
        });
    }

    /** Waits until every rule group was last evaluated at {@code moment} or later. */
    public void awaitEvaluationAfter(Instant moment) throws IOException {
        within30s("Prometheus had not evaluated every rule group after " + moment, Duration.ofMillis(100), () -> {
            JsonNode groups = JSON.readTree(get("/api/v1/rules").body()).at("/data/groups");
            boolean all = groups.size() > 0;
            for (JsonNode group : groups) {
                all &= !Instant.parse(group.path("lastEvaluation").asText()).isBefore(moment);
            }
            return all ? Optional.of(true) : Optional.empty();
        });
    }

    /** What a wait asks of Prometheus each time: a value once the condition holds, else empty. */
    private interface Check<T> {
        Optional<T> get() throws IOException;
    }

    /** Asks {@code check} every {@code every} until it gives a value, for at most 30 s; then fails with the log. */
    private <T> T within30s(String failure, Duration every, Check<T> check) throws IOException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (Instant.now().isBefore(deadline)) {
            Optional<T> value = check.get();
            if (value.isPresent()) {
                return value.get();
            }
            pause(every);
        }
        throw new AssertionError(failure + " within 30 s: " + logText());
    }

    /** The rules Prometheus evaluates, with each one's health and last error ({@code /api/v1/rules}). */
    public List<JsonNode> rules() throws IOException {
        JsonNode answer = JSON.readTree(get("/api/v1/rules").body());
        return answer.at("/data/groups").findParents("health");
    }

    public String logText() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private HttpResponse<String> get(String path) throws IOException {
        try {
            return HTTP.send(
                    HttpRequest.newBuilder(URI.create(url + path))
                            .timeout(Duration.ofSeconds(10))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** SIGKILL: its data directory is thrown away with target/. */
    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
