package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.sluice.testsupport.DeployedQueries;
import dev.sluice.testsupport.Program;
import dev.sluice.testsupport.WorkerProcess;

/**
 * The alert rules as Prometheus' own promtool (Debian's, from
 * scripts/prometheus.sh) sees them: the rule file it would load checks, and
 * each alert's unit tests (deploy/prometheus/sluice-alerts.test.yaml) pass:
 * it fires on the series that should fire it, with its labels and
 * annotations, and stays silent on series just under its threshold or not yet
 * past its {@code for:}. Run as docs/operations.md tells an operator to run them.
 */
class AlertRulesIT {

    private static final Duration PROMTOOL_DEADLINE = Duration.ofSeconds(60);

    private static Path dir;

    /** The plain rule file and its tests side by side, as promtool resolves rule_files beside the test file. */
    @BeforeAll
    static void ruleFileBesideItsTests() throws IOException {
        assertThat(Program.run("", PROMTOOL_DEADLINE, "sh", "-c", "command -v promtool")
                        .exitCode())
                .as("promtool is missing: run scripts/prometheus.sh (scripts/test.sh does)")
                .isZero();
        dir = WorkerProcess.freshDataDir("alert-rules");
        DeployedQueries.writePlainRules(dir);
        Files.copy(DeployedQueries.RULE_TESTS, dir.resolve(DeployedQueries.RULE_TESTS.getFileName()));
    }

    @Test
    void promtoolChecksTheRuleFile() {
        Program.Result checked = promtool("check", "sluice-alerts.rules.yaml");
        assertThat(checked.exitCode()).as(checked.output()).isZero();
        assertThat(checked.output())
                .contains("SUCCESS: " + DeployedQueries.rules().size() + " rules found");
    }

    @Test
    void everyAlertPassesItsUnitTests() {
        Program.Result tested =
                promtool("test", DeployedQueries.RULE_TESTS.getFileName().toString());
        assertThat(tested.exitCode()).as(tested.output()).isZero();
        assertThat(tested.output()).as(tested.output()).contains("SUCCESS").doesNotContain("FAILED");
    }

    /** promtool passes a rule with no test at all; a rule nobody tested is not proven. */
    @Test
    void everyAlertIsTestedFiringAndSilentAndEveryRecordingRuleIsTested() throws IOException {
        Set<String> firing = new HashSet<>();
        Set<String> silent = new HashSet<>();
        List<String> testedExpressions = new ArrayList<>();
        JsonNode tests = new YAMLMapper().readTree(DeployedQueries.RULE_TESTS.toFile());
        for (JsonNode test : tests.path("tests")) {
            for (JsonNode evaluation : test.path("alert_rule_test")) {
                String alert = evaluation.path("alertname").asText();
                (evaluation.path("exp_alerts").isEmpty() ? silent : firing).add(alert);
            }
            test.path("promql_expr_test")
                    .forEach(e -> testedExpressions.add(e.path("expr").asText()));
        }
        List<DeployedQueries.Rule> rules = DeployedQueries.rules();
        List<String> alerts = rules.stream()
                .filter(DeployedQueries.Rule::alert)
                .map(DeployedQueries.Rule::name)
                .toList();
        assertThat(alerts).isNotEmpty();
        assertThat(firing).as("alerts with a test that fires them").containsAll(alerts);
        assertThat(silent).as("alerts with a test where they stay silent").containsAll(alerts);
        rules.stream()
                .filter(r -> !r.alert())
                .forEach(r -> assertThat(testedExpressions)
                        .as("promql_expr_test of the recording rule " + r.name())
                        .anyMatch(e -> e.contains(r.name())));
    }

    /** Runs promtool on the files in {@link #dir}; rule_files in a test file are read beside it. */
    private static Program.Result promtool(String action, String file) {
        Program.Result result = Program.run(
                "",
                PROMTOOL_DEADLINE,
                "promtool",
                action,
                "rules",
                dir.resolve(file).toString());
        // In the test's output whether it passes or not, as promtool prints it.
        System.out.println("promtool " + action + " rules " + file + "\n" + result.output());
        return result;
    }
}
