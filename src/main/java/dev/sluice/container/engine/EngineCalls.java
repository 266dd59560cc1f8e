package dev.sluice.container.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Whether the engine's calls are timing out, for readiness (ADR 0016). An
 * engine can answer its ping while the calls that do the work hang, so a ping
 * alone does not show a wedged engine.
 *
 * <p>A timeout makes the calls "timing out" at once. They stop being so once
 * a quiet period (the call timeout) has passed since the last timeout and a
 * call sent after that timeout has been answered in time: one answer from a
 * call that was already in flight proves nothing, and a single quick answer
 * does not outweigh calls that are still hanging.
 */
final class EngineCalls {

    private record Timeout(String call, Duration after, Instant at) {}

    private final Duration quiet;
    private final Clock clock;
    private Timeout last;
    private boolean answeredSince = true;

    EngineCalls(Duration quiet, Clock clock) {
        this.quiet = quiet;
        this.clock = clock;
    }

    /** When a call is sent; hand it back to {@link #answered}. */
    Instant now() {
        return clock.instant();
    }

    /** A call sent at {@code sentAt} was answered in time. */
    synchronized void answered(Instant sentAt) {
        if (last != null && sentAt.isAfter(last.at())) {
            answeredSince = true;
        }
    }

    /** A call ran past its deadline of {@code after}. */
    synchronized void timedOut(String call, Duration after) {
        last = new Timeout(call, after, clock.instant());
        answeredSince = false;
    }

    /** Why calls count as timing out, or empty when they do not. */
    synchronized Optional<String> problem() {
        if (last == null
                || (answeredSince && !clock.instant().isBefore(last.at().plus(quiet)))) {
            return Optional.empty();
        }
        return Optional.of("Docker engine calls are timing out: " + last.call() + " did not answer within "
                + EngineTimeoutException.readable(last.after()) + " (at " + last.at() + ")");
    }

    /** True while no call sent since the last timeout has been answered: a probe is worth sending. */
    synchronized boolean awaitingAnswer() {
        return !answeredSince;
    }
}
