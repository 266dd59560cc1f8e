package dev.sluice.metrics;

import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.get;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.sluice.testsupport.Program;
import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.Scrape;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Real dispatches on the engine, with real callback receivers, move the
 * figures an operator alerts on; and the alerts and the dashboard in deploy/
 * select only metrics the worker exposes, in expressions Prometheus' own
 * PromQL grammar accepts. Other tests share this worker, so figures are
 * checked to have moved at least as far as these dispatches move them.
 */
@QuarkusTest
class MetricsIT {

    private static final int STDOUT_BYTES = 50_000;
    private static final int STDOUT_CAP = 2048;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The dispatches, run once for every test here, and the scrapes around them. */
    private record Run(Scrape before, Scrape after) {

        double moved(String series) {
            return after.value(series) - before.valueOr(series, 0);
        }

        /** Each series grew by at least its figure; every one that fell short is named. */
        void assertMovedAtLeast(Map<String, Double> least) {
            SoftAssertions softly = new SoftAssertions();
            least.forEach((series, figure) ->
                    softly.assertThat(moved(series)).as(series).isGreaterThanOrEqualTo(figure));
            softly.assertAll();
        }
    }

    private static Run run;

    private static synchronized Run run() {
        if (run == null) {
            run = dispatchAndScrape();
        }
        return run;
    }

    /**
     * A truncated success whose callback fails once and is then delivered, and
     * a failure whose receiver answers 410 Gone, so its delivery is dead-lettered.
     */
    private static Run dispatchAndScrape() {
        try (Receiver flaky = Receiver.on("127.0.0.1").then(Receiver.status(500));
                Receiver gone = Receiver.on("127.0.0.1").otherwise(Receiver.status(410))) {
            Scrape before = Scrape.take();

            Map<String, Object> truncated =
                    new HashMap<>(script("yes out | head -c " + STDOUT_BYTES + "; printf 'warn\\n' >&2"));
            truncated.put("output", Map.of("stdoutCapBytes", STDOUT_CAP));
            truncated.put("callbackUrl", flaky.url("/hook"));
            Map<String, Object> failing = new HashMap<>(script("printf 'oops\\n' >&2; exit 3"));
            failing.put("callbackUrl", gone.url("/hook"));
            String truncatedId = submit(truncated);
            String failingId = submit(failing);

            assertThat(awaitTerminal(truncatedId).getString("status")).isEqualTo("succeeded");
            assertThat(awaitTerminal(failingId).getString("status")).isEqualTo("failed");
            awaitDelivery(truncatedId, "delivered");
            awaitDelivery(failingId, "dead");
            // The outbox and the queue are counted on a schedule (every second in the test profile), never by a scrape.
            Scrape after = await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(
                            Scrape::take,
                            s -> !Double.isNaN(s.value("sluice_callback_outbox_pending"))
                                    && s.names().contains("sluice_queue_depth"));
            return new Run(before, after);
        }
    }

    private static void awaitDelivery(String id, String state) {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> get(id).getString("callback.state"), state::equals);
    }

    @Test
    void dispatchesMoveTheirCountsTheirHistogramsAndTheirOutputFigures() {
        Run r = run();
        r.assertMovedAtLeast(Map.ofEntries(
                Map.entry("sluice_dispatches_accepted_total", 2.0),
                Map.entry("sluice_dispatches_finished_total{status=\"succeeded\"}", 1.0),
                Map.entry("sluice_dispatches_finished_total{status=\"failed\"}", 1.0),
                Map.entry("sluice_dispatch_queue_wait_seconds_count", 2.0),
                Map.entry("sluice_dispatch_queue_wait_seconds_bucket{le=\"+Inf\"}", 2.0),
                Map.entry("sluice_dispatch_run_duration_seconds_count{status=\"succeeded\"}", 1.0),
                Map.entry("sluice_dispatch_run_duration_seconds_count{status=\"failed\"}", 1.0),
                Map.entry("sluice_output_captured_bytes_total{stream=\"stdout\"}", (double) STDOUT_BYTES),
                Map.entry("sluice_output_dropped_bytes_total{stream=\"stdout\"}", (double) STDOUT_BYTES - STDOUT_CAP),
                Map.entry("sluice_output_truncations_total{stream=\"stdout\"}", 1.0),
                Map.entry("sluice_output_captured_bytes_total{stream=\"stderr\"}", (double) "warn\noops\n".length())));
        assertThat(r.moved("sluice_dispatch_run_duration_seconds_sum{status=\"succeeded\"}"))
                .isPositive();
    }

    @Test
    void callbacksCountEachAttemptByOutcomeAndTheDeadLetterByWhy() {
        Run r = run();
        r.assertMovedAtLeast(Map.of(
                "sluice_callback_attempt_duration_seconds_count{outcome=\"retry\"}", 1.0,
                "sluice_callback_attempt_duration_seconds_count{outcome=\"delivered\"}", 1.0,
                "sluice_callback_attempt_duration_seconds_count{outcome=\"dead_letter\"}", 1.0,
                "sluice_callback_dead_letters_total{reason=\"gone\"}", 1.0,
                "sluice_callback_attempt_failures_total{reason=\"http_5xx\"}", 1.0,
                "sluice_callback_attempt_failures_total{reason=\"http_4xx\"}", 1.0));
        assertThat(r.after().value("sluice_callback_outbox_pending")).isGreaterThanOrEqualTo(0);
    }

    @Test
    void engineCallsAndStoreWritesAreTimedAndTheGaugesReadTheWorkersState() {
        Run r = run();
        Map<String, Double> calls = new HashMap<>();
        for (String operation : List.of("create", "start", "attach", "wait", "inspect_image")) {
            calls.put("sluice_engine_call_duration_seconds_count{operation=\"" + operation + "\",outcome=\"ok\"}", 2.0);
        }
        for (String operation : List.of("store_result", "insert_dispatches")) {
            calls.put("sluice_store_write_duration_seconds_count{operation=\"" + operation + "\",outcome=\"ok\"}", 2.0);
        }
        r.assertMovedAtLeast(calls);

        assertThat(r.after().value("sluice_engine_up")).isEqualTo(1);
        assertThat(r.after().value("sluice_dispatches_running")).isGreaterThanOrEqualTo(0);
        assertThat(r.after().value("sluice_dispatches_queued")).isGreaterThanOrEqualTo(0);
        // Probed every 5 s; a stalled store would be minutes behind.
        assertThat(r.after().value("sluice_store_last_answer_age_seconds")).isBetween(0.0, 30.0);
    }

    @Test
    void everyAlertSelectsOnlyMetricsTheWorkerExposes() throws IOException {
        JsonNode rule = new YAMLMapper()
                .readTree(Path.of("deploy/prometheus/sluice-alerts.yaml").toFile());
        List<String> alerts = new ArrayList<>();
        List<String> expressions = new ArrayList<>();
        for (JsonNode group : rule.path("spec").path("groups")) {
            for (JsonNode alert : group.path("rules")) {
                alerts.add(alert.path("alert").asText());
                expressions.add(alert.path("expr").asText());
            }
        }
        assertThat(alerts)
                .contains(
                        "SluiceCallbackDeadLetters",
                        "SluiceCallbackOutboxGrowing",
                        "SluiceEngineDown",
                        "SluiceStoreStalled",
                        "SluiceDispatchErrors");
        assertSelectOnlyExposedMetrics(expressions);
    }

    @Test
    void everyDashboardPanelSelectsOnlyMetricsTheWorkerExposes() throws IOException {
        JsonNode dashboard =
                JSON.readTree(Path.of("deploy/grafana/sluice-dashboard.json").toFile());
        List<String> expressions = new ArrayList<>();
        int panels = 0;
        for (JsonNode panel : dashboard.path("panels")) {
            if (panel.path("type").asText().equals("row")) {
                continue;
            }
            panels++;
            assertThat(panel.path("targets")).as(panel.path("title").asText()).isNotEmpty();
            for (JsonNode target : panel.path("targets")) {
                // Grafana puts a range in place of its variable before it queries.
                expressions.add(target.path("expr").asText().replace("$__rate_interval", "5m"));
            }
        }
        assertThat(panels).isGreaterThanOrEqualTo(12);
        assertSelectOnlyExposedMetrics(expressions);
    }

    @Test
    void theAutoscalersQuerySelectsOnlyMetricsTheWorkerExposes() throws IOException {
        JsonNode scaled = new YAMLMapper()
                .readTree(Path.of("deploy/kubernetes/overlays/replicas/scaledobject.yaml")
                        .toFile());
        List<String> queries = new ArrayList<>();
        scaled.at("/spec/triggers")
                .forEach(t -> queries.add(t.at("/metadata/query").asText()));
        assertThat(queries).hasSize(1);
        assertSelectOnlyExposedMetrics(queries);
    }

    @Test
    void theOperationsDocumentNamesEveryMetricTheWorkerExposes() throws IOException {
        String table = metricsTable(Files.readString(Path.of("docs/operations.md")));
        Set<String> metrics = run().after().names().stream()
                .filter(n -> n.startsWith("sluice_"))
                .map(n -> n.replaceFirst("_(bucket|count|sum|max)$", ""))
                .collect(Collectors.toSet());
        assertThat(metrics).hasSizeGreaterThanOrEqualTo(15);
        assertThat(metrics.stream().filter(n -> !table.contains("`" + n + "`")))
                .as("metrics missing from docs/operations.md's table")
                .isEmpty();
    }

    /** The rows of the table in the document's "Metrics" section, whose first column names metrics. */
    private static String metricsTable(String document) {
        String section = document.substring(document.indexOf("\n## Metrics\n"));
        section = section.substring(0, section.indexOf("\n## ", 1));
        return section.lines()
                .filter(line -> line.startsWith("| `sluice_"))
                .map(line -> line.substring(0, line.indexOf(" |", 2)))
                .collect(Collectors.joining("\n"));
    }

    /** Each expression parses by Prometheus' grammar and selects only metrics of the scrape after the dispatches. */
    private static void assertSelectOnlyExposedMetrics(List<String> expressions) throws IOException {
        Set<String> exposed = run().after().names();
        Program.Result checked = Program.node(JSON.writeValueAsString(expressions), "check-promql.mjs");
        assertThat(checked.exitCode()).as(checked.output()).isZero();
        JsonNode results = JSON.readTree(checked.stdout());
        assertThat(results).hasSize(expressions.size());
        for (JsonNode result : results) {
            String expr = result.path("expr").asText();
            assertThat(result.path("metrics")).as(expr).isNotEmpty();
            for (JsonNode metric : result.path("metrics")) {
                assertThat(exposed).as(expr).contains(metric.asText());
            }
        }
    }
}
