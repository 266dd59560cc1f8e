package dev.sluice.record;

import java.time.Duration;

import dev.sluice.output.CapturedOutput;

/**
 * Announced once for every dispatch that reaches a terminal state, after its
 * result and outbox row are committed: callback delivery wakes for it, metrics
 * count it. Losing the announcement loses nothing (the outbox is polled). It
 * carries no output, only its figures: the result stays in the store.
 *
 * @param ran how long it ran, or {@code null} when it never started
 */
public record DispatchFinished(String dispatchId, Dispatch.Status status, Duration ran, Stream stdout, Stream stderr) {

    /**
     * What became of one output stream (ADR 0014).
     *
     * @param capturedBytes every byte the process wrote to it
     * @param droppedBytes  the bytes between the kept head and tail that the result does not show
     */
    public record Stream(long capturedBytes, long droppedBytes, boolean truncated) {

        public static Stream of(CapturedOutput output) {
            return new Stream(
                    output.originalBytes(),
                    output.truncated() ? output.overflow().droppedBytes() : 0,
                    output.truncated());
        }
    }

    public static DispatchFinished of(DispatchResult result, CapturedOutput stdout, CapturedOutput stderr) {
        return new DispatchFinished(
                result.dispatchId(),
                result.status(),
                result.durationMs() == null ? null : Duration.ofMillis(result.durationMs()),
                Stream.of(stdout),
                Stream.of(stderr));
    }
}
