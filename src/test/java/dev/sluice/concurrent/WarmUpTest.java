package dev.sluice.concurrent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.MutableClock;

/** Steps never throw, each is noted in order, and none starts past the warm-up's deadline. */
class WarmUpTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-23T10:00:00Z"));
    private final WarmUp warmUp = new WarmUp(clock, Duration.ofSeconds(30));

    @Test
    void aFailedStepIsNotedAndTheNextOneStillRuns() {
        List<String> ran = new ArrayList<>();

        warmUp.step("api", () -> ran.add("api"));
        warmUp.step("container", () -> {
            throw new IllegalStateException("engine unavailable");
        });
        warmUp.step("output", () -> ran.add("output"));

        assertThat(ran).containsExactly("api", "output");
        assertThat(warmUp.steps()).extracting(WarmUp.Step::name).containsExactly("api", "container", "output");
        assertThat(warmUp.steps()).extracting(WarmUp.Step::failure).containsExactly(null, "engine unavailable", null);
    }

    @Test
    void storeStatementsGetWhatIsLeftOfTheDeadlineAndNoStepStartsPastIt() {
        clock.advance(Duration.ofSeconds(20));
        assertThat(warmUp.timeLeft()).isEqualTo(Duration.ofSeconds(10));

        clock.advance(Duration.ofSeconds(11));
        List<String> ran = new ArrayList<>();
        warmUp.step("callback", () -> ran.add("callback"));

        assertThat(warmUp.timeLeft()).isZero();
        assertThat(ran).isEmpty();
        assertThat(warmUp.steps())
                .singleElement()
                .satisfies(s -> assertThat(s.failure()).contains("deadline"));
    }
}
