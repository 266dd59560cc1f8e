package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The bounded soak: rounds of 50 dispatches finishing together, 1 MiB and
 * 4 MiB each, with orphans reaped during each burst, against the packaged
 * worker with the JVM settings it ships with.
 */
class SoakIT {

    @Test
    void everyResultIsStoredAndDeliveredAndTheWorkerStaysReady() throws Exception {
        Soak.Report report = Soak.run(Soak.Plan.BOUNDED);
        System.out.print(report.markdown());
        assertThat(report.rounds()).hasSize(Soak.Plan.BOUNDED.rounds()).allSatisfy(round -> {
            assertThat(round.delivered())
                    .as("delivered in round %d", round.number())
                    .isEqualTo(round.submitted());
            assertThat(round.wrong())
                    .as("wrong results in round %d", round.number())
                    .isZero();
            assertThat(round.readyAfter())
                    .as("ready after round %d", round.number())
                    .isTrue();
            assertThat(round.orphansLeft())
                    .as("orphans left after round %d", round.number())
                    .isZero();
        });
        assertThat(report.finalDispatchSucceeded()).isTrue();
    }
}
