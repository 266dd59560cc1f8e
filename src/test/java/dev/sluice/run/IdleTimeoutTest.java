package dev.sluice.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.sluice.record.Dispatch;
import dev.sluice.testsupport.MutableClock;

/** The idle timeout's checks, with a clock the test moves and timer tasks the test runs. */
class IdleTimeoutTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final byte[] LINE = "working\n".getBytes();

    private final MutableClock clock = new MutableClock(T0);
    private final Timer timer = new Timer();
    private final List<String> stopped = new ArrayList<>();
    private final Execution execution = new Execution("d-1", stopped::add, timer);
    private final IdleWatch watch = new IdleWatch(LIMIT, clock);

    @AfterEach
    void shutDown() {
        timer.shutdownNow();
    }

    @Test
    void aContainerThatGoesQuietIsStoppedForBeingIdleAfterItsLastOutput() {
        startWatching();
        assertThat(timer.delays).containsExactly(LIMIT);

        clock.advance(Duration.ofSeconds(4));
        watch.stderr(LINE, 0, LINE.length);
        clock.advance(Duration.ofSeconds(6));
        timer.runLast();
        assertThat(stopped).isEmpty();
        assertThat(execution.stopReason()).isNull();
        assertThat(timer.delays).last().isEqualTo(Duration.ofSeconds(4)); // looks again when 10 s have passed

        clock.advance(Duration.ofSeconds(4));
        timer.runLast();
        assertThat(execution.stopReason()).isEqualTo(Execution.StopReason.IDLE);
        assertThat(execution.stopReason().status).isEqualTo(Dispatch.Status.TIMED_OUT);
        assertThat(stopped).containsExactly("c-1");
    }

    @Test
    void printingOnEitherStreamKeepsItRunning() {
        startWatching();
        for (int i = 0; i < 5; i++) {
            clock.advance(Duration.ofSeconds(9));
            if (i % 2 == 0) {
                watch.stdout(LINE, 0, LINE.length);
            } else {
                watch.stderr(LINE, 0, LINE.length);
            }
            clock.advance(timer.delays.get(timer.delays.size() - 1).minusSeconds(9));
            timer.runLast();
        }
        assertThat(stopped).isEmpty();
        assertThat(execution.stopReason()).isNull();
    }

    @Test
    void aContainerThatNeverPrintsIsIdleFromItsStart() {
        clock.advance(Duration.ofMinutes(5)); // attach and start took a while: not counted
        startWatching();
        clock.advance(LIMIT);
        timer.runLast();
        assertThat(execution.stopReason()).isEqualTo(Execution.StopReason.IDLE);
    }

    @Test
    void onceTheContainerExitedACheckStopsNothing() {
        startWatching();
        clock.advance(LIMIT);
        execution.finished();
        timer.runLast();
        assertThat(stopped).isEmpty();
        assertThat(execution.stopReason()).isNull();
    }

    @Test
    void aCancelThatCameFirstDecidesTheStatus() {
        startWatching();
        execution.stop(Execution.StopReason.CANCEL);
        clock.advance(LIMIT);
        timer.runLast();
        assertThat(execution.stopReason()).isEqualTo(Execution.StopReason.CANCEL);
        assertThat(stopped).containsExactly("c-1");
    }

    private void startWatching() {
        execution.containerCreated("c-1");
        execution.started(Duration.ofHours(1));
        timer.delays.clear();
        timer.tasks.clear();
        execution.watchIdle(watch);
    }

    /** Records what is scheduled, and runs it only when the test says so. */
    private static final class Timer extends ScheduledThreadPoolExecutor {

        final List<Runnable> tasks = new ArrayList<>();
        final List<Duration> delays = new ArrayList<>();

        Timer() {
            super(1);
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit) {
            tasks.add(task);
            delays.add(Duration.ofMillis(unit.toMillis(delay)));
            return super.schedule(() -> {}, 1, TimeUnit.DAYS);
        }

        void runLast() {
            tasks.get(tasks.size() - 1).run();
        }
    }
}
