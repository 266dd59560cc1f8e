package dev.sluice.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A cancel recorded by another replica stops the dispatch here, through the one stop path (ADR 0065). */
class RemoteCancelsTest {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final List<String> stopped = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    private Execution running(String id) {
        Execution execution = new Execution(id, stopped::add, timer);
        execution.containerCreated("c-" + id);
        execution.started(Duration.ofHours(1));
        return execution;
    }

    @Test
    void eachRequestedDispatchThisWorkerRunsIsStoppedOnceAsCancelled() {
        Execution a = running("a");
        Execution timedOut = running("t");
        timedOut.stop(Execution.StopReason.TIMEOUT);
        stopped.clear();
        Map<String, Execution> mine = Map.of("a", a, "t", timedOut);
        RemoteCancels cancels =
                new RemoteCancels(() -> List.of("a", "elsewhere", "t"), id -> Optional.ofNullable(mine.get(id)));

        assertThat(cancels.poll()).isEqualTo(1);
        assertThat(a.stopReason()).isEqualTo(Execution.StopReason.CANCEL);
        assertThat(timedOut.stopReason()).isEqualTo(Execution.StopReason.TIMEOUT); // the first reason wins
        assertThat(stopped).containsExactly("c-a");

        // Still stopping at the next poll: its stop is not started again.
        assertThat(cancels.poll()).isZero();
        assertThat(stopped).containsExactly("c-a");
    }

    @Test
    void nothingRequestedStopsNothing() {
        Execution a = running("a");
        RemoteCancels cancels = new RemoteCancels(List::of, id -> Optional.of(a));
        assertThat(cancels.poll()).isZero();
        assertThat(a.stopReason()).isNull();
    }
}
