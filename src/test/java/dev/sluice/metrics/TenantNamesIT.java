package dev.sluice.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.Scrape;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;

/**
 * Whoever reaches the management port (it takes no token) learns no tenant's
 * name from the packaged worker's metrics, unless the operator asks for the
 * queue's figures per tenant with {@code sluice.metrics.tenant-tag} (ADR 0071).
 * Two tenants queue dispatches behind one run slot; the scrape counts them.
 */
class TenantNamesIT {

    private static final String ALPHA = "alpha-corp";
    private static final String BETA = "beta-labs";
    private static final Map<String, String> TOKENS =
            Map.of(ALPHA, "alpha-corp-token-0123456789", BETA, "beta-labs-token-0123456789");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void byDefaultTheScrapeCountsTheWholeQueueAndNamesNoTenant() throws Exception {
        try (WorkerProcess worker = WorkerProcess.start(environment("tenant-names-off", Map.of()))) {
            List<String[]> dispatches = queueBehindOneSlot(worker);
            // Depth and wait from one scrape: once both dispatches are counted their wait is above 0 (a
            // loaded run read 0.0 at the first scrape that counted both).
            String scraped = awaitScrape(
                    worker,
                    s -> s.valueOr("sluice_queue_depth", 0) == 2
                            && s.valueOr("sluice_queue_oldest_wait_seconds", 0) > 0);
            assertThat(scraped).doesNotContain(ALPHA).doesNotContain(BETA).doesNotContain("tenant=\"");
            cancel(worker, dispatches);
        }
    }

    @Test
    void withTheTenantTagEachTenantsQueueIsCountedByName() throws Exception {
        try (WorkerProcess worker =
                WorkerProcess.start(environment("tenant-names-on", Map.of("SLUICE_METRICS_TENANT_TAG", "true")))) {
            List<String[]> dispatches = queueBehindOneSlot(worker);
            String scraped = awaitScrape(
                    worker,
                    s -> s.valueOr("sluice_queue_depth{tenant=\"" + ALPHA + "\"}", 0) == 1
                            && s.valueOr("sluice_queue_depth{tenant=\"" + BETA + "\"}", 0) == 1);
            Scrape scrape = Scrape.of(scraped);
            assertThat(scrape.value("sluice_queue_depth{tenant=\"default\"}")).isZero();
            assertThat(scrape.names()).contains("sluice_queue_oldest_wait_seconds");
            assertThat(scrape.valueOr("sluice_queue_depth", -1))
                    .as("no untagged series")
                    .isEqualTo(-1);
            cancel(worker, dispatches);
        }
    }

    private static Map<String, String> environment(String id, Map<String, String> overrides) {
        Map<String, String> env = new HashMap<>(Map.of(
                "SLUICE_API_TOKENS", ALPHA + ":" + TOKENS.get(ALPHA) + "," + BETA + ":" + TOKENS.get(BETA),
                "SLUICE_DISPATCH_MAX_RUNNING", "1",
                "SLUICE_METRICS_QUEUE_INTERVAL", "1s"));
        env.putAll(overrides);
        return WorkerProcess.environment(id, env);
    }

    /** One of alpha's runs in the one slot; one of each tenant's waits behind it. Each as {tenant, id}. */
    private static List<String[]> queueBehindOneSlot(WorkerProcess worker) throws IOException {
        List<String[]> dispatches = new ArrayList<>();
        dispatches.add(new String[] {ALPHA, submit(worker, ALPHA, "sleep 60")});
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> status(worker, ALPHA, dispatches.get(0)[1]).equals("running"));
        dispatches.add(new String[] {ALPHA, submit(worker, ALPHA, "echo alpha")});
        dispatches.add(new String[] {BETA, submit(worker, BETA, "echo beta")});
        return dispatches;
    }

    /** The scrape once it shows {@code reached}; failing, the queue's lines of the last one say what it showed. */
    private static String awaitScrape(WorkerProcess worker, Predicate<Scrape> reached) {
        AtomicReference<String> last = new AtomicReference<>("");
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    last.set(worker.probe("/q/metrics").body());
                    assertThat(reached.test(Scrape.of(last.get())))
                            .as(
                                    "the queue's series: %s",
                                    last.get()
                                            .lines()
                                            .filter(l -> l.startsWith("sluice_queue"))
                                            .toList())
                            .isTrue();
                });
        return last.get();
    }

    private static void cancel(WorkerProcess worker, List<String[]> dispatches) throws IOException {
        for (String[] d : dispatches) {
            send(
                    worker,
                    d[0],
                    HttpRequest.newBuilder(URI.create(worker.url("/v1/dispatches/" + d[1])))
                            .DELETE());
        }
        for (String[] d : dispatches) {
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> status(worker, d[0], d[1]).equals("cancelled"));
        }
    }

    private static String submit(WorkerProcess worker, String tenant, String script) throws IOException {
        HttpResponse<String> answer = send(
                worker,
                tenant,
                HttpRequest.newBuilder(URI.create(worker.url("/v1/dispatches")))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                JSON.writeValueAsString(WorkerClient.script(script)))));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
        return JSON.readTree(answer.body()).path("id").asText();
    }

    private static String status(WorkerProcess worker, String tenant, String id) throws IOException {
        HttpResponse<String> answer =
                send(worker, tenant, HttpRequest.newBuilder(URI.create(worker.url("/v1/dispatches/" + id))));
        JsonNode record = JSON.readTree(answer.body());
        return record.path("status").asText();
    }

    private static HttpResponse<String> send(WorkerProcess worker, String tenant, HttpRequest.Builder request)
            throws IOException {
        try {
            return HTTP.send(
                    request.header("Authorization", "Bearer " + TOKENS.get(tenant))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }
}
