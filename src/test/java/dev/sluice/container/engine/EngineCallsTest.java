package dev.sluice.container.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.MutableClock;

/** When calls count as timing out, and when they stop counting so, moved by a clock. */
class EngineCallsTest {

    private static final Duration QUIET = Duration.ofSeconds(30);

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-24T10:00:00Z"));
    private final EngineCalls calls = new EngineCalls(QUIET, clock);

    @Test
    void answeredCallsAreNoProblem() {
        Instant sent = calls.now();
        clock.advance(Duration.ofMillis(5));
        calls.answered(sent);

        assertThat(calls.problem()).isEmpty();
        assertThat(calls.awaitingAnswer()).isFalse();
    }

    @Test
    void aTimeoutIsAProblemAtOnceNamingTheCall() {
        calls.timedOut("POST /containers/c1/start", QUIET);

        assertThat(calls.problem())
                .contains("Docker engine calls are timing out: POST /containers/c1/start did not answer within 30 s"
                        + " (at 2026-11-24T10:00:00Z)");
        assertThat(calls.awaitingAnswer()).isTrue();
    }

    @Test
    void anAnswerToACallSentBeforeTheTimeoutProvesNothing() {
        Instant sentBefore = calls.now();
        clock.advance(Duration.ofSeconds(1));
        calls.timedOut("POST /containers/c1/start", QUIET);
        calls.answered(sentBefore);
        clock.advance(QUIET.plusSeconds(1));

        assertThat(calls.problem()).isPresent();
        assertThat(calls.awaitingAnswer()).isTrue();
    }

    @Test
    void callsRecoverOnceQuietAndAnsweredAgain() {
        calls.timedOut("POST /containers/c1/start", QUIET);
        clock.advance(Duration.ofSeconds(1));
        calls.answered(calls.now());

        assertThat(calls.problem())
                .as("answered, but not quiet for long enough")
                .isPresent();
        assertThat(calls.awaitingAnswer()).isFalse();

        clock.advance(QUIET);
        assertThat(calls.problem()).isEmpty();
    }

    @Test
    void quietAloneDoesNotRecover() {
        calls.timedOut("GET /containers/json", QUIET);
        clock.advance(QUIET.multipliedBy(10));

        assertThat(calls.problem()).isPresent();
    }

    @Test
    void anotherTimeoutStartsTheQuietPeriodAgain() {
        calls.timedOut("POST /containers/c1/start", QUIET);
        clock.advance(Duration.ofSeconds(20));
        calls.answered(calls.now());
        clock.advance(Duration.ofSeconds(5));
        calls.timedOut("POST /containers/c2/start", QUIET);
        clock.advance(Duration.ofSeconds(10));
        calls.answered(calls.now());
        clock.advance(Duration.ofSeconds(15));

        assertThat(calls.problem())
                .as("35 s after the first timeout, 25 s after the second")
                .isPresent();
        clock.advance(Duration.ofSeconds(5));
        assertThat(calls.problem()).isEmpty();
    }
}
