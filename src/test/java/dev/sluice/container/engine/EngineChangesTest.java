package dev.sluice.container.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** At most so many changes in flight, the others waiting their turn while the engine answers, and no longer. */
class EngineChangesTest {

    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    @Test
    void noMoreThanTheLimitRunAtOnce() throws Exception {
        EngineChanges changes = new EngineChanges(3, Duration.ofSeconds(10));
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<Future<?>> done = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 20; i++) {
            done.add(threads.submit(() -> changes.run("start", () -> {
                most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                sleep(20);
                inFlight.decrementAndGet();
            })));
        }
        for (Future<?> f : done) {
            f.get(10, TimeUnit.SECONDS);
        }
        assertThat(most.get()).isEqualTo(3);
    }

    @Test
    void aWaitThatOutlastsTheTimeoutFailsWithoutSendingAnything() throws Exception {
        EngineChanges changes = new EngineChanges(1, Duration.ofMillis(200));
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        threads.submit(() -> changes.run("start", () -> {
            holding.countDown();
            await(release);
        }));
        holding.await();
        AtomicInteger sent = new AtomicInteger();

        // The change in flight is released only afterwards: returning at all is the wait's deadline.
        assertThatThrownBy(() -> changes.run("create", sent::incrementAndGet))
                .isInstanceOfSatisfying(ContainerException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ContainerException.Reason.ENGINE_UNAVAILABLE);
                    assertThat(e.timedOut())
                            .as("nothing was sent: it may be queued again")
                            .isFalse();
                    assertThat(e.getMessage())
                            .isEqualTo(
                                    "create: none of the 1 engine changes in flight finished within 200 ms; not sent");
                });
        assertThat(sent.get()).isZero();
        release.countDown();
    }

    @Test
    void aQueueLongerThanTheTimeoutIsWaitedOutWhileChangesKeepFinishing() throws Exception {
        EngineChanges changes = new EngineChanges(1, Duration.ofSeconds(1));
        List<Future<?>> done = new CopyOnWriteArrayList<>();
        // Thirty changes of 100 ms behind one place: the last waits about three times the timeout.
        for (int i = 0; i < 30; i++) {
            done.add(threads.submit(() -> changes.run("create", () -> sleep(100))));
        }
        for (Future<?> f : done) {
            f.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void zeroMeansNoLimit() throws Exception {
        EngineChanges changes = new EngineChanges(0, Duration.ofMillis(100));
        CountDownLatch all = new CountDownLatch(50);
        CountDownLatch release = new CountDownLatch(1);
        for (int i = 0; i < 50; i++) {
            threads.submit(() -> changes.run("remove", () -> {
                all.countDown();
                await(release);
            }));
        }
        assertThat(all.await(5, TimeUnit.SECONDS)).isTrue();
        release.countDown();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
