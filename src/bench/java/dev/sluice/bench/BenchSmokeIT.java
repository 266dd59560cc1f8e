package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * The benchmark harness at smoke size, so it cannot rot: every scenario runs
 * end to end and produces its figures. Speed targets are judged by the full
 * run (bench/run.sh, BENCHMARKS.md), never here.
 */
class BenchSmokeIT {

    @Test
    void everyScenarioRunsAndReports() throws Exception {
        List<Harness.Row> rows = Harness.run(Harness.Sizes.SMOKE, Set.of());
        assertThat(rows)
                .extracting(Harness.Row::id)
                .contains("P1", "P2", "P3", "P5", "P6", "P7", "P8", "P9", "P10", "P11");
        // Correctness, unlike speed, holds at any size.
        assertThat(rows).filteredOn(r -> r.id().equals("P8")).allMatch(Harness.Row::met);
        assertThat(rows)
                .filteredOn(r -> r.measure().contains("held to what was printed"))
                .isNotEmpty()
                .allMatch(Harness.Row::met);
    }
}
