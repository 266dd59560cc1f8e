package dev.sluice.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One scrape of a worker's {@code /q/metrics} (on its management port), parsed: the value of each series
 * and the names of the metrics it holds. A series is written as the worker
 * writes it, labels in its order, without the trailing comma:
 * {@code sluice_dispatches_finished_total{status="failed"}}.
 */
public final class Scrape {

    private final Map<String, Double> series;

    private Scrape(Map<String, Double> series) {
        this.series = series;
    }

    /** Scrapes the worker under test (its management port). */
    public static Scrape take() {
        return of(Management.given()
                .get("/q/metrics")
                .then()
                .statusCode(200)
                .extract()
                .asString());
    }

    /**
     * Parses Prometheus' text format, or OpenMetrics': a sample's exemplar (the
     * trace of one observation, {@code ... # {trace_id="..."} 0.01}) is left out.
     */
    public static Scrape of(String text) {
        Map<String, Double> series = new TreeMap<>();
        text.lines()
                .filter(l -> !l.isBlank() && !l.startsWith("#"))
                .map(Scrape::withoutExemplar)
                .forEach(line -> {
                    int end = line.indexOf('{') >= 0 ? line.lastIndexOf('}') + 1 : line.indexOf(' ');
                    String name = line.substring(0, end).replace(",}", "}");
                    series.put(name, number(line.substring(end).strip().split(" ")[0]));
                });
        return new Scrape(series);
    }

    private static String withoutExemplar(String line) {
        int exemplar = line.indexOf(" # {");
        return exemplar < 0 ? line : line.substring(0, exemplar);
    }

    private static double number(String value) {
        return switch (value) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(value);
        };
    }

    /** The value of a series, failing when the scrape does not hold it. */
    public double value(String name) {
        assertThat(series).as("series in the scrape").containsKey(name);
        return series.get(name);
    }

    /** The value of a series, or {@code otherwise} when the scrape does not hold it (yet). */
    public double valueOr(String name, double otherwise) {
        return series.getOrDefault(name, otherwise);
    }

    /** The names of the metrics, as a query selects them: {@code sluice_dispatch_queue_wait_seconds_bucket}. */
    public Set<String> names() {
        Set<String> names = new TreeSet<>();
        series.keySet().forEach(s -> names.add(s.contains("{") ? s.substring(0, s.indexOf('{')) : s));
        return names;
    }
}
