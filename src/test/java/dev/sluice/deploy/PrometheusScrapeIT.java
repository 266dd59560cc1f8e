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
 * packaged worker's management port every half second while
 * dispatches succeed, fail and are cancelled through the API, with one
 * callback retried and one dead-lettered; it evaluates the alert rules itself
 * all along, as often. Once it has scraped what the worker counted after the
 * last of them, and evaluated the rules on it, every rule's expression, every
 * dashboard query and the autoscaler's query run through its HTTP API as an
 * operator's tools run them: each must evaluate, and each must find data,
 * unless it is named in {@link #NO_DATA_IN_A_HEALTHY_MINUTE} with why.
 */
class PrometheusScrapeIT {

    /**
     * How often Prometheus scrapes the worker and evaluates the rules, and how
     * long a scrape may take. Short, so that a run of seconds holds scrapes
     * enough, where one-second scrapes were given a minute; the queries'
     * windows ({@code [1m]} and longer) hold the whole run. Not shorter: on two
     * loaded cores a freshly started worker took up to a quarter of a second
     * to answer a scrape.
     */
    private static final Duration INTERVAL = Duration.ofMillis(500);

    /**
     * How long after the last dispatch has ended the worker's figures are all
     * counted: those that need the store every second (the worker's settings
     * below), the others when they happen.
     */
    private static final Duration COUNTED = Duration.ofSeconds(2);

    /**
     * A series that only a scrape of the started worker writes ({@code up} is
     * written by every scrape, also those before the worker listens).
     */
    private static final String SCRAPED = "sluice_engine_up{job=\"sluice\"}";

    /** What Grafana would put in place of {@code $__rate_interval} over a short range: a window holding the run. */
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
    private static Instant since;
    private static Instant scraped;

    @BeforeAll
    static void scrapeAWorkerWhileDispatchesRun() throws IOException {
        Path rules = DeployedQueries.writePlainRules(WorkerProcess.freshDataDir("scraped-rules"));
        worker = WorkerProcess.spawn(WorkerProcess.environment(
                "prometheus-scrape",
                // The figures that need the store, counted every second as in the test profile.
                Map.of("SLUICE_METRICS_OUTBOX_INTERVAL", "1s", "SLUICE_METRICS_QUEUE_INTERVAL", "1s")));
        // Prometheus first scrapes its targets some five seconds after it starts: it starts beside the worker.
        prometheus =
                PrometheusServer.start(URI.create(worker.managementUrl()).getAuthority(), NAMESPACE, rules, INTERVAL);
        worker.awaitStarted();
        // The dispatches' first figures must fall inside the queries' windows, after samples before them.
        since = prometheus.awaitSamples(SCRAPED, 1);
        prometheus.awaitSamples(SCRAPED, 3);
        ScrapedDispatches.run(worker);
        Instant last = prometheus.awaitScrapeAfter(SCRAPED, Instant.now().plus(COUNTED));
        prometheus.awaitEvaluationAfter(last);
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

    /**
     * Five in six at least of the scrapes since the worker first answered one
     * succeeded within the interval, as 50 of a minute's 60 one-second scrapes did.
     */
    @Test
    void prometheusScrapedTheWorkerAtEveryInterval() throws IOException {
        long window = Duration.between(since, scraped).toMillis();
        JsonNode scrapes = prometheus.query("sum_over_time(up{job=\"sluice\"}[" + window + "ms])", scraped);
        double expected = (double) window / INTERVAL.toMillis();
        assertThat(values(scrapes))
                .as(scrapes.toString())
                .singleElement()
                .satisfies(v -> assertThat(v).isGreaterThanOrEqualTo(expected * 5 / 6));
    }

    /** Prometheus evaluated each rule at every interval against what it scraped; none failed. */
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
}
