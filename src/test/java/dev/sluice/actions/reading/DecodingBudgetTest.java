package dev.sluice.actions.reading;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The decoding budget: each tenant within its share, all within the worker's, and every byte given back. */
class DecodingBudgetTest {

    private final DecodingBudget budget = new DecodingBudget(100, 60);

    @Test
    void aTenantIsRefusedPastItsShareAndTheOthersStillHaveRoom() {
        DecodingBudget.Grant first = budget.take("alpha", 50);
        assertThatThrownBy(() -> budget.take("alpha", 11)).isInstanceOfSatisfying(BodyRefused.class, refused -> {
            assertThat(refused.kind()).isEqualTo(BodyRefused.Kind.BUSY);
            assertThat(refused.detail()).contains("sluice.api.max-decoding-bytes-per-tenant");
        });
        DecodingBudget.Grant other = budget.take("beta", 50);
        assertThatThrownBy(() -> budget.take("gamma", 1))
                .isInstanceOfSatisfying(
                        BodyRefused.class,
                        refused -> assertThat(refused.detail()).contains("sluice.api.max-decoding-bytes "));
        first.close();
        budget.take("gamma", 50).close();
        other.close();
        assertThat(budget.used()).isZero();
        assertThat(budget.used("alpha")).isZero();
    }

    @Test
    void aGrantGrowsToWhatItsTokensCostAndIsRefusedPastTheBound() {
        DecodingBudget.Grant grant = budget.take("alpha", 10);
        grant.atLeast(5); // already covered
        assertThat(budget.used("alpha")).isEqualTo(10);
        grant.atLeast(40);
        assertThat(budget.used("alpha")).isEqualTo(40);
        assertThatThrownBy(() -> grant.atLeast(61)).isInstanceOf(BodyRefused.class);
        assertThat(budget.used("alpha"))
                .as("a refused growth charges nothing more")
                .isEqualTo(40);
        grant.close();
        grant.close();
        assertThat(budget.used()).isZero();
        grant.atLeast(30);
        assertThat(budget.used()).as("a closed grant charges nothing").isZero();
    }

    @Test
    void aBodyOfUnknownLengthIsChargedTheMostWhileReadThenItsLength() {
        DecodingBudget.Grant read = budget.take("alpha", 60);
        assertThatThrownBy(() -> budget.take("alpha", 1)).isInstanceOf(BodyRefused.class);
        read.settle(5);
        assertThat(budget.used("alpha")).isEqualTo(5);
        budget.take("alpha", 55).close();
        read.settle(20);
        assertThat(budget.used("alpha")).isEqualTo(20);
        read.close();
        assertThat(budget.used()).isZero();
    }

    @Test
    void aRefusedTakeChargesNothing() {
        assertThatThrownBy(() -> budget.take("alpha", 61)).isInstanceOf(BodyRefused.class);
        assertThat(budget.used()).isZero();
        assertThat(budget.used("alpha")).isZero();
    }
}
