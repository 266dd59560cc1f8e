package dev.sluice.callback;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import org.junit.jupiter.api.Test;

class RetryScheduleTest {

    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    private static final List<Duration> DEFAULT = List.of(
            Duration.ZERO,
            Duration.ofSeconds(5),
            Duration.ofMinutes(5),
            Duration.ofMinutes(30),
            Duration.ofHours(2),
            Duration.ofHours(5),
            Duration.ofHours(10),
            Duration.ofHours(14),
            Duration.ofHours(20),
            Duration.ofHours(24));

    @Test
    void withoutJitterTheScheduleIsExact() {
        RetrySchedule s = new RetrySchedule(DEFAULT, 0, Duration.ofHours(24), () -> 0.5);
        assertThat(s.attempts()).isEqualTo(10);
        assertThat(s.first(NOW)).isEqualTo(NOW);
        assertThat(s.next(1, NOW, Optional.empty())).contains(NOW.plusSeconds(5));
        assertThat(s.next(9, NOW, Optional.empty())).contains(NOW.plus(Duration.ofHours(24)));
        assertThat(s.next(10, NOW, Optional.empty())).isEmpty();
    }

    @Test
    void jitterStaysWithinItsShareOfEachDelay() {
        Random random = new Random(7);
        RetrySchedule s = new RetrySchedule(DEFAULT, 0.2, Duration.ofHours(24), random::nextDouble);
        boolean below = false;
        boolean above = false;
        for (int i = 0; i < 1000; i++) {
            Duration d = Duration.between(NOW, s.next(2, NOW, Optional.empty()).orElseThrow());
            assertThat(d).isBetween(Duration.ofMinutes(4), Duration.ofMinutes(6));
            below |= d.compareTo(Duration.ofMinutes(5)) < 0;
            above |= d.compareTo(Duration.ofMinutes(5)) > 0;
        }
        assertThat(below && above).isTrue();
    }

    @Test
    void retryAfterPushesTheNextAttemptButNeverPastItsLimit() {
        RetrySchedule s = new RetrySchedule(DEFAULT, 0, Duration.ofHours(1), () -> 0.5);
        assertThat(s.next(1, NOW, Optional.of(Duration.ofSeconds(30)))).contains(NOW.plusSeconds(30));
        assertThat(s.next(1, NOW, Optional.of(Duration.ofSeconds(1)))).contains(NOW.plusSeconds(5));
        assertThat(s.next(1, NOW, Optional.of(Duration.ofDays(7)))).contains(NOW.plus(Duration.ofHours(1)));
    }

    @Test
    void retryAfterIsReadAsSecondsOrADate() {
        assertThat(CallbackClient.parseRetryAfter("120", NOW)).contains(Duration.ofSeconds(120));
        assertThat(CallbackClient.parseRetryAfter("Sun, 22 Nov 2026 10:01:00 GMT", NOW))
                .contains(Duration.ofMinutes(1));
        assertThat(CallbackClient.parseRetryAfter("Sun, 22 Nov 2026 09:00:00 GMT", NOW))
                .contains(Duration.ZERO);
        assertThat(CallbackClient.parseRetryAfter("soon", NOW)).isEmpty();
        assertThat(CallbackClient.parseRetryAfter("-5", NOW)).isEmpty();
    }
}
