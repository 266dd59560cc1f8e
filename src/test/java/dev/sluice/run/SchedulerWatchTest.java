package dev.sluice.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.MutableClock;

/** When the scheduler counts as wedged, with a clock the test moves. */
class SchedulerWatchTest {

    private static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");
    private static final Duration STALL = Duration.ofMinutes(2);

    private final MutableClock clock = new MutableClock(T0);
    private Optional<Instant> fillingSince = Optional.empty();
    private final SchedulerWatch watch = new SchedulerWatch(() -> fillingSince, clock, STALL);

    @Test
    void aSchedulerThatTicksIsNeverWedged() {
        for (int i = 0; i < 10; i++) {
            clock.advance(Duration.ofMinutes(1));
            watch.ticked();
            assertThat(watch.wedged(true)).isEmpty();
        }
    }

    @Test
    void noTickForTheStallTimeoutIsWedgedOnlyWhileTheStoreAnswers() {
        clock.advance(STALL);
        assertThat(watch.wedged(true)).as("at the timeout, not past it").isEmpty();
        clock.advance(Duration.ofSeconds(1));
        assertThat(watch.wedged(true)).hasValue("the scheduler's tick has not completed since " + T0);
        assertThat(watch.wedged(false))
                .as("a store that does not answer explains it")
                .isEmpty();
        watch.ticked();
        assertThat(watch.wedged(true)).isEmpty();
    }

    @Test
    void aFillerPassStuckForTheStallTimeoutIsWedgedEvenWhileTicksComplete() {
        fillingSince = Optional.of(T0);
        clock.advance(STALL.plusSeconds(1));
        watch.ticked();
        assertThat(watch.wedged(true)).hasValue("a pass of the queue's filler has run since " + T0);
        assertThat(watch.wedged(false)).isEmpty();
        fillingSince = Optional.empty();
        assertThat(watch.wedged(true)).isEmpty();
    }
}
