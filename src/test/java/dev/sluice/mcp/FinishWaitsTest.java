package dev.sluice.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import dev.sluice.concurrent.SharedPool;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchFinished;
import dev.sluice.record.RequestRefused;

/**
 * dispatch_subagent's wait (ADR 0073): a future that the announcement of the
 * dispatch's end completes, or its bound; it never misses an end that came
 * before it began, holds no thread, and a tenant holds at most its share of
 * the waits. The bound is a timer the test fires itself: nothing here sleeps
 * or measures time.
 */
class FinishWaitsTest {

    private final AtomicReference<Dispatch.Status> status = new AtomicReference<>(Dispatch.Status.RUNNING);
    private final AtomicInteger reads = new AtomicInteger();
    /** The bounds set and not cancelled, in order: each fires when the test runs it. */
    private final List<Runnable> timers = new ArrayList<>();

    private final AtomicInteger cancelled = new AtomicInteger();
    private final FinishWaits waits = new FinishWaits(
            id -> {
                reads.incrementAndGet();
                return record(id, status.get());
            },
            (delay, task) -> {
                timers.add(task);
                return cancelled::incrementAndGet;
            },
            new SharedPool(3, 2));

    @Test
    void theAnnouncementEndsTheWaitAndCancelsItsBound() {
        CompletableFuture<Void> wait = waits.until("d-1", Duration.ofHours(1));
        assertThat(wait).isNotDone();
        assertThat(waits.waiting()).isEqualTo(1);

        waits.finished(new DispatchFinished("d-1", Dispatch.Status.SUCCEEDED, null, null, null));

        assertThat(wait).isCompleted();
        assertThat(cancelled.get()).isEqualTo(1);
        assertThat(waits.waiting()).isZero();
    }

    @Test
    void anEndBeforeTheWaitIsSeenWithoutAnAnnouncement() {
        status.set(Dispatch.Status.FAILED);

        assertThat(waits.until("d-1", Duration.ofHours(1))).isCompleted();
        assertThat(waits.waiting()).isZero();
    }

    @Test
    void anotherDispatchsEndDoesNotEndTheWaitAndTheBoundDoes() {
        CompletableFuture<Void> wait = waits.until("d-1", Duration.ofSeconds(40));
        waits.finished(new DispatchFinished("d-2", Dispatch.Status.SUCCEEDED, null, null, null));
        assertThat(wait).isNotDone();

        timers.get(0).run();

        assertThat(wait).isCompleted();
        assertThat(waits.waiting()).isZero();
        assertThat(reads.get()).isEqualTo(1); // once after registering; the answer reads the record again
    }

    @Test
    void oneAnnouncementEndsEveryWaitOfItsDispatch() {
        List<CompletableFuture<Void>> replays = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            replays.add(waits.until("d-1", Duration.ofSeconds(40)));
        }
        assertThat(waits.waiting()).isEqualTo(250);

        waits.finished(new DispatchFinished("d-1", Dispatch.Status.CANCELLED, null, null, null));

        assertThat(replays).allMatch(CompletableFuture::isDone);
        assertThat(waits.waiting()).isZero();
    }

    @Test
    void noWaitReadsNothingAndSetsNoBound() {
        assertThat(waits.until("d-1", Duration.ZERO)).isCompleted();
        assertThat(reads.get()).isZero();
        assertThat(timers).isEmpty();
    }

    @Test
    void aTenantHoldsItsShareOfTheWaitsAndAnotherStillWaits() {
        FinishWaits.Held first = waits.hold("noisy");
        waits.hold("noisy");

        assertThatThrownBy(() -> waits.hold("noisy")).isInstanceOfSatisfying(RequestRefused.class, e -> {
            assertThat(e.reason()).isEqualTo(RequestRefused.Reason.TOO_MANY_WAITS);
            assertThat(e.getMessage()).contains("sluice.mcp.max-waits-per-tenant");
        });
        FinishWaits.Held quiet = waits.hold("quiet");
        // Three are held: the worker's bound refuses a fourth, whoever asks.
        assertThatThrownBy(() -> waits.hold("other"))
                .isInstanceOfSatisfying(
                        RequestRefused.class, e -> assertThat(e.getMessage()).contains("sluice.mcp.max-waits "));

        first.close();
        first.close(); // given back once, however often closed
        quiet.close();
        assertThat(waits.hold("noisy")).isNotNull();
        assertThat(waits.hold("quiet")).isNotNull();
    }

    private static Dispatch record(String id, Dispatch.Status status) {
        return new Dispatch(
                id, status, "img", Instant.EPOCH, null, null, null, null, null, null, "w", null, false, "fp", 1, null);
    }
}
