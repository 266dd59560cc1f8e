package dev.sluice.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

class RecordCopiesTest {

    record Sample(String name, int count, List<String> items) {
        Sample {
            if (count < 0) {
                throw new IllegalArgumentException("count below zero");
            }
        }
    }

    private final Sample sample = new Sample("a", 2, List.of("x"));

    @Test
    void theNamedComponentChangesAndEveryOtherIsKept() {
        assertThat(RecordCopies.with(sample, "name", "b")).isEqualTo(new Sample("b", 2, List.of("x")));
        assertThat(RecordCopies.with(sample, "count", 3)).isEqualTo(new Sample("a", 3, List.of("x")));
        assertThat(RecordCopies.with(sample, "items", null)).isEqualTo(new Sample("a", 2, null));
        assertThat(sample).isEqualTo(new Sample("a", 2, List.of("x")));
    }

    @Test
    void theCanonicalConstructorChecksTheCopy() {
        assertThatThrownBy(() -> RecordCopies.with(sample, "count", -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("count below zero");
    }

    @Test
    void anUnknownNameOrAValueOfTheWrongTypeIsRefused() {
        assertThatThrownBy(() -> RecordCopies.with(sample, "size", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Sample has no component size");
        assertThatThrownBy(() -> RecordCopies.with(sample, "count", "3")).isInstanceOf(IllegalArgumentException.class);
    }
}
