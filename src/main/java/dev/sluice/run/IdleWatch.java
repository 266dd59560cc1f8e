package dev.sluice.run;

import java.time.Clock;
import java.time.Duration;

import dev.sluice.container.stream.OutputSink;

/**
 * When a dispatch last printed, on either stream, and so how long it may
 * still stay quiet before its {@code idleTimeout} runs out. The reader thread
 * notes every chunk with one clock read and one volatile write: watching
 * costs capture nothing it would notice. The timer asks {@link #untilIdle()}.
 */
final class IdleWatch implements OutputSink {

    private final Duration limit;
    private final Clock clock;
    private volatile long lastOutputMillis;

    IdleWatch(Duration limit, Clock clock) {
        this.limit = limit;
        this.clock = clock;
        this.lastOutputMillis = clock.millis();
    }

    /** Counts from now: the container has just started, and not printing yet counts as quiet. */
    void start() {
        lastOutputMillis = clock.millis();
    }

    Duration limit() {
        return limit;
    }

    @Override
    public void stdout(byte[] chunk, int offset, int count) {
        lastOutputMillis = clock.millis();
    }

    @Override
    public void stderr(byte[] chunk, int offset, int count) {
        lastOutputMillis = clock.millis();
    }

    /** How long until the container has printed nothing for the limit; zero or negative once it has. */
    Duration untilIdle() {
        return Duration.ofMillis(lastOutputMillis + limit.toMillis() - clock.millis());
    }
}
