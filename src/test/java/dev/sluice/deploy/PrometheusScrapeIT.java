package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sluice.testsupport.DeployedQueries;
import dev.sluice.testsupport.PrometheusServer;
import dev.sluice.testsupport.WorkerProcess;

/**
 * A real Prometheus (Debian's, from scripts/prometheus.sh) scrapes the
 * packaged worker's management port every second for a minute while
 * dispatches succeed, fail and are cancelled through the API, with one
 * callback retried and one dead-lettered; it evaluates the alert rules itself
 * all along. Then every rule's expression, every dashboard query and the
 * autoscaler's query run through its HTTP API as an operator's tools run
 * them: each must evaluate, and each must find data, unless it is named in
 * {@link #NO_DATA_IN_A_HEALTHY_MINUTE} with why.
 */
class PrometheusScrapeIT {

    /** Long enough for a {@code [1m]} window of one-second samples, short enough for CI. */
    private static final Duration SCRAPING = Duration.ofSeconds(60);

    /** What Grafana would put in place of {@code $__rate_interval} for one-second scrapes over a short range. */
    private static final String RATE_INTERVAL = "1m";

    private static final String NAMESPACE = "sluice";

    /**
     * Queries (or selectors of the rules) that find nothing when a healthy
     * worker runs for a minute, and why. Keep it to series that only an
     * incident writes: the promtool tests feed those.
     */
    private static final Map<String, String> NO_DATA_IN_A_HEALTHY_MINUTE = Map.of(
            "sluice_engine_call_duration_seconds_count{outcome=~\"error|timeout\"}",
            "an engine call's series of an outcome is written on its first such call: a healthy engine has no"
                    + " 5xx answers or timeouts (SluiceEngineCallsFailing's promtool tests feed them)",
            "sum by (operation, outcome) (rate(sluice_engine_call_duration_seconds_count{outcome!=\"ok\"}[1m]))",
            "the same engine calls that failed, for the dashboard's 'Engine call failures' panel");

    private static WorkerProcess worker;
    private static PrometheusServer prometheus;
    private static Instant scraped;

    @BeforeAll
    static void scrapeAWorkerForAMinute() throws IOException {
        Path rules = DeployedQueries.writePlainRules(WorkerProcess.freshDataDir("scraped-rules"));
        worker = WorkerProcess.start(WorkerProcess.environment(
                "prometheus-scrape",
                // The figures that need the store, counted every second as in the test profile.
                Map.of("SLUICE_METRICS_OUTBOX_INTERVAL", "1s", "SLUICE_METRICS_QUEUE_INTERVAL", "1s")));
        prometheus = PrometheusServer.start(URI.create(worker.managementUrl()).getAuthority(), NAMESPACE, rules);
        // The dispatches' first figures must fall inside the last minute's window, after samples before them.
        Instant since = prometheus.awaitSamples("up{job=\"sluice\"}", 1);
        prometheus.awaitSamples("up{job=\"sluice\"}", 3);
        ScrapedDispatches.run(worker);
        pauseUntil(since.plus(SCRAPING));
        scraped = Instant.now();
    }

    @AfterAll
    static void stop() {
        if (prometheus != null) {
            prometheus.close();
        }
        if (worker != null) {
            worker.close();
        }
    }

    @Test
    void prometheusScrapedTheWorkerEverySecond() throws IOException {
        JsonNode scrapes = prometheus.query("sum_over_time(up{job=\"sluice\"}[1m])", scraped);
        assertThat(values(scrapes))
                .as(scrapes.toString())
                .singleElement()
                .satisfies(v -> assertThat(v).isGreaterThanOrEqualTo(50));
    }

    /** Prometheus evaluated each rule every second against what it scraped; none failed. */
    @Test
    void prometheusEvaluatedEveryRuleWithoutError() throws IOException {
        List<JsonNode> rules = prometheus.rules();
        assertThat(rules).hasSize(DeployedQueries.rules().size());
        SoftAssertions softly = new SoftAssertions();
        for (JsonNode rule : rules) {
            softly.assertThat(rule.path("health").asText())
                    .as(rule.path("name").asText() + ": "
                            + rule.path("lastError").asText())
                    .isEqualTo("ok");
        }
        softly.assertAll();
    }

    @Test
    void everyRuleEvaluatesAndTheSeriesItReadsHoldData() throws IOException {
        List<String> expressions =
                DeployedQueries.rules().stream().map(DeployedQueries.Rule::expr).toList();
        SoftAssertions softly = new SoftAssertions();
        for (String expr : expressions) {
            assertEvaluates(softly, expr);
        }
        for (String selector : DeployedQueries.selectors(expressions)) {
            assertHoldsData(softly, selector);
        }
        softly.assertAll();
    }

    @Test
    void everyDashboardQueryHoldsData() throws IOException {
        List<String> queries = DeployedQueries.dashboardQueries(RATE_INTERVAL);
        assertThat(queries).hasSizeGreaterThanOrEqualTo(20);
        SoftAssertions softly = new SoftAssertions();
        for (String query : queries) {
            assertHoldsData(softly, query);
        }
        softly.assertAll();
    }

    @Test
    void theAutoscalersQueryHoldsData() throws IOException {
        SoftAssertions softly = new SoftAssertions();
        for (String query : DeployedQueries.autoscalerQueries()) {
            assertHoldsData(softly, query);
        }
        softly.assertAll();
    }

    private static JsonNode assertEvaluates(SoftAssertions softly, String expr) throws IOException {
        JsonNode answer = prometheus.query(expr, scraped);
        softly.assertThat(answer.path("status").asText())
                .as(expr + " → " + answer.path("error").asText())
                .isEqualTo("success");
        return answer;
    }

    /** At least one series with a number: what a panel draws. NaN (a quantile of no observations) is no data. */
    private static void assertHoldsData(SoftAssertions softly, String query) throws IOException {
        JsonNode answer = assertEvaluates(softly, query);
        if (NO_DATA_IN_A_HEALTHY_MINUTE.containsKey(query)) {
            return;
        }
        softly.assertThat(values(answer))
                .as(query + " → " + answer.path("data"))
                .anyMatch(v -> !v.isNaN());
    }

    private static List<Double> values(JsonNode answer) {
        List<Double> values = new ArrayList<>();
        answer.at("/data/result")
                .forEach(r -> values.add(number(r.at("/value/1").asText())));
        return values;
    }

    /** A sample's value as the API writes it: Go's float format, with Prometheus' spelling of infinities. */
    private static double number(String value) {
        return switch (value) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(value);
        };
    }

    private static void pauseUntil(Instant moment) {
        try {
            Thread.sleep(Math.max(0, Duration.between(Instant.now(), moment).toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
