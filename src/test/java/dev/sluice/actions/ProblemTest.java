package dev.sluice.actions;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProblemTest {

    @Test
    void aFieldsPointerIsItsPathAsAJsonPointer() {
        assertThat(Problem.FieldError.of("resources.memoryBytes", "x").pointer())
                .isEqualTo("#/resources/memoryBytes");
        assertThat(Problem.FieldError.of("command.1", "x").pointer()).isEqualTo("#/command/1");
    }

    @Test
    void tildesAndSlashesInANameAreEscapedAsRfc6901Says() {
        assertThat(Problem.FieldError.of("env.A/B~C", "x").pointer()).isEqualTo("#/env/A~1B~0C");
    }
}
