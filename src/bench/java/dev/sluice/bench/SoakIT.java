package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The soak at the suite's size: a round of 50 dispatches finishing together
 * at 1 MiB each and one at 4 MiB each, with orphans reaped during each burst,
 * against the packaged worker with the JVM settings it ships with. Every
 * result's stdout is held byte for byte to what its process printed; one that
 * is short or wrong without saying so fails, one that says it lost output is
 * reported. {@code -Dsluice.soak.bounded=true} runs the bounded plan's three
 * rounds, as scripts/soak.sh does.
 */
class SoakIT {

    private static final Soak.Plan PLAN =
            Boolean.getBoolean("sluice.soak.bounded") ? Soak.Plan.BOUNDED : Soak.Plan.SUITE;

    @Test
    void everyResultIsStoredDeliveredAndExactOrSaysItIsNotAndTheWorkerStaysReady() throws Exception {
        Soak.Report report = Soak.run(PLAN);
        System.out.print(report.markdown());
        assertThat(report.rounds()).hasSize(PLAN.rounds()).allSatisfy(round -> {
            assertThat(round.delivered())
                    .as("delivered in round %d", round.number())
                    .isEqualTo(round.submitted());
            assertThat(round.output().claimedList())
                    .as("results claiming a completeness they do not have in round %d", round.number())
                    .isEmpty();
            assertThat(round.failures())
                    .as("results that failed in round %d", round.number())
                    .isEmpty();
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
