package dev.sluice.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchFinished;

/**
 * dispatch_subagent's wait: it ends when the dispatch's end is announced,
 * never misses an end that came before it began, and otherwise answers with
 * the record as it is once its bound has passed. The timeouts only keep a
 * broken wait from hanging the build; nothing here measures time.
 */
class FinishWaitsTest {

    private final AtomicReference<Dispatch.Status> status = new AtomicReference<>(Dispatch.Status.RUNNING);
    private final AtomicInteger reads = new AtomicInteger();
    private final FinishWaits waits = new FinishWaits(id -> {
        reads.incrementAndGet();
        return record(id, status.get());
    });

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theAnnouncementEndsTheWait() throws Exception {
        CompletableFuture<Dispatch> waiting =
                CompletableFuture.supplyAsync(() -> waits.await("d-1", Duration.ofHours(1)));
        // Announce only once the waiter has read the record, so it is registered.
        while (reads.get() == 0) {
            Thread.onSpinWait();
        }
        status.set(Dispatch.Status.SUCCEEDED);
        waits.finished(new DispatchFinished("d-1", Dispatch.Status.SUCCEEDED, null, null, null));

        assertThat(waiting.get().status()).isEqualTo(Dispatch.Status.SUCCEEDED);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void anEndBeforeTheWaitIsSeenWithoutAnAnnouncement() {
        status.set(Dispatch.Status.FAILED);

        assertThat(waits.await("d-1", Duration.ofHours(1)).status()).isEqualTo(Dispatch.Status.FAILED);
    }

    @Test
    void anotherDispatchsEndDoesNotEndTheWaitAndTheBoundDoes() {
        waits.finished(new DispatchFinished("d-2", Dispatch.Status.SUCCEEDED, null, null, null));

        assertThat(waits.await("d-1", Duration.ofMillis(50)).status()).isEqualTo(Dispatch.Status.RUNNING);
        assertThat(reads.get()).isEqualTo(2); // before waiting, and once the bound passed
    }

    @Test
    void noWaitReadsOnce() {
        assertThat(waits.await("d-1", Duration.ZERO).status()).isEqualTo(Dispatch.Status.RUNNING);
        assertThat(reads.get()).isEqualTo(1);
    }

    private static Dispatch record(String id, Dispatch.Status status) {
        return new Dispatch(
                id, status, "img", Instant.EPOCH, null, null, null, null, null, null, "w", null, false, "fp", 1, null);
    }
}
