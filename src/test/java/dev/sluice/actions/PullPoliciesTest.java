package dev.sluice.actions;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.sluice.record.PullPolicy;

/** A request narrows the operator's pull policy, never widens it (ADR 0059). */
class PullPoliciesTest {

    @Test
    void noneAskedForIsTheOperatorsAndLessIsAllowed() {
        List<Problem.FieldError> errors = new ArrayList<>();
        assertThat(PullPolicies.narrowed(null, PullPolicy.IF_NOT_PRESENT, errors))
                .isEqualTo(PullPolicy.IF_NOT_PRESENT);
        assertThat(PullPolicies.narrowed("never", PullPolicy.IF_NOT_PRESENT, errors))
                .isEqualTo(PullPolicy.NEVER);
        assertThat(PullPolicies.narrowed("if-not-present", PullPolicy.ALWAYS, errors))
                .isEqualTo(PullPolicy.IF_NOT_PRESENT);
        assertThat(errors).isEmpty();
    }

    @Test
    void moreThanTheOperatorAllowsOrNoPolicyIsRefusedNamingTheField() {
        List<Problem.FieldError> errors = new ArrayList<>();
        assertThat(PullPolicies.narrowed("always", PullPolicy.IF_NOT_PRESENT, errors))
                .isNull();
        assertThat(PullPolicies.narrowed("if-not-present", PullPolicy.NEVER, errors))
                .isNull();
        assertThat(PullPolicies.narrowed("sometimes", PullPolicy.ALWAYS, errors))
                .isNull();
        assertThat(errors)
                .extracting(Problem.FieldError::field)
                .containsOnly("imagePullPolicy")
                .hasSize(3);
        assertThat(errors.get(0).detail()).contains("if-not-present");
    }
}
