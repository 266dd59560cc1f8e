package dev.sluice.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

/**
 * The PromQL that deploy/ ships for operators: the alerting (and any
 * recording) rules of deploy/prometheus/sluice-alerts.yaml, the Grafana
 * dashboard's queries and the autoscaler's, read as the tools that run them
 * read them.
 */
public final class DeployedQueries {

    public static final Path RULES = Path.of("deploy/prometheus/sluice-alerts.yaml");
    public static final Path RULE_TESTS = Path.of("deploy/prometheus/sluice-alerts.test.yaml");
    public static final Path DASHBOARD = Path.of("deploy/grafana/sluice-dashboard.json");
    public static final Path SCALED_OBJECT = Path.of("deploy/kubernetes/overlays/replicas/scaledobject.yaml");

    /**
     * How an operator without the Prometheus operator gets the plain rule file
     * under the PrometheusRule's spec (docs/operations.md, "Metrics"; the
     * header of {@link #RULE_TESTS}): every line after {@code spec:}, two
     * spaces less indented.
     */
    public static final String EXTRACT_RULES = "sed '1,/^spec:$/d; s/^  //' " + RULES;

    private static final YAMLMapper YAML = new YAMLMapper();
    private static final ObjectMapper JSON = new ObjectMapper();

    private DeployedQueries() {}

    /** One rule: an alert, or a recording rule that records its expression under {@code name}. */
    public record Rule(String name, String expr, boolean alert) {}

    /** The rules of every group, in the file's order. */
    public static List<Rule> rules() {
        List<Rule> rules = new ArrayList<>();
        for (JsonNode group : read(YAML, RULES).at("/spec/groups")) {
            for (JsonNode rule : group.path("rules")) {
                boolean alert = rule.has("alert");
                rules.add(new Rule(
                        rule.path(alert ? "alert" : "record").asText(),
                        rule.path("expr").asText(),
                        alert));
            }
        }
        return rules;
    }

    /** Each dashboard query, with Grafana's rate interval replaced by {@code rateInterval}. */
    public static List<String> dashboardQueries(String rateInterval) {
        List<String> queries = new ArrayList<>();
        for (JsonNode target : read(JSON, DASHBOARD).findValues("targets")) {
            for (JsonNode t : target) {
                queries.add(t.path("expr").asText().replace("$__rate_interval", rateInterval));
            }
        }
        return queries;
    }

    /** The query of each of the autoscaler's triggers. */
    public static List<String> autoscalerQueries() {
        List<String> queries = new ArrayList<>();
        read(YAML, SCALED_OBJECT)
                .at("/spec/triggers")
                .forEach(t -> queries.add(t.at("/metadata/query").asText()));
        return queries;
    }

    /**
     * Writes the plain rule file into {@code dir} as sluice-alerts.rules.yaml,
     * made by {@link #EXTRACT_RULES} itself, and checks that it holds exactly
     * the PrometheusRule's spec, so the documented command stays right.
     */
    public static Path writePlainRules(Path dir) {
        Program.Result extracted = Program.run("", Duration.ofSeconds(10), "sh", "-c", EXTRACT_RULES);
        assertThat(extracted.exitCode()).as(extracted.output()).isZero();
        try {
            assertThat(YAML.readTree(extracted.stdout()))
                    .as("what `%s` writes", EXTRACT_RULES)
                    .isEqualTo(read(YAML, RULES).path("spec"));
            return Files.writeString(dir.resolve("sluice-alerts.rules.yaml"), extracted.stdout());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Each expression's selectors as written, parsed by Prometheus' own PromQL grammar (check-promql.mjs). */
    public static List<String> selectors(List<String> expressions) {
        try {
            Program.Result checked = Program.node(JSON.writeValueAsString(expressions), "check-promql.mjs");
            assertThat(checked.exitCode()).as(checked.output()).isZero();
            List<String> selectors = new ArrayList<>();
            for (JsonNode result : JSON.readTree(checked.stdout())) {
                result.path("selectors").forEach(s -> selectors.add(s.asText()));
            }
            return selectors;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode read(ObjectMapper mapper, Path file) {
        try {
            return mapper.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
