package dev.sluice.callback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.sluice.outbound.AddressPolicy;
import dev.sluice.outbound.GuardedDnsResolver;
import dev.sluice.record.Dispatch;
import dev.sluice.record.StoredDispatches;
import dev.sluice.store.Jdbc;
import dev.sluice.store.ResultFiles;
import dev.sluice.testsupport.Events;
import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.Signatures;
import dev.sluice.testsupport.TestStores;
import dev.sluice.trace.Tracing;
import io.opentelemetry.api.OpenTelemetry;

/**
 * The outbox outlives the worker: deliveries pending when a worker stops are
 * sent by the next one over the same store, with the same webhook-id and body,
 * and a claim held by a worker that died is taken over once its lease lapses,
 * or at once by that worker's next life.
 */
class CallbackRestartIT {

    private final Receiver receiver = Receiver.on("127.0.0.1");
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final ExecutorService senders = Executors.newFixedThreadPool(4);

    @AfterEach
    void close() {
        receiver.close();
        timer.shutdownNow();
        senders.shutdownNow();
    }

    /** One worker's view of the store: a fresh connection pool over the same database file. */
    private record Worker(StoredDispatches dispatches, CallbackStore outbox, CallbackDelivery delivery) {}

    private Worker start(Path db, String name, Clock clock) {
        Jdbc jdbc = TestStores.migrated(TestStores.h2File(db));
        RetrySchedule schedule = new RetrySchedule(
                List.of(Duration.ZERO, Duration.ofMillis(200), Duration.ofMillis(200)),
                0,
                Duration.ofHours(1),
                () -> 0.5);
        CallbackStore outbox = new CallbackStore(jdbc, () -> schedule.first(clock.instant()));
        // Every worker over this store finds the result files in the same place, as they do under data-dir.
        StoredDispatches dispatches =
                new StoredDispatches(jdbc, outbox, new ResultFiles(db.resolveSibling("results"), jdbc, clock));
        CallbackClient client = new CallbackClient(
                new GuardedDnsResolver(new AddressPolicy(List.of("127.0.0.1")), InetAddress::getAllByName),
                Duration.ofSeconds(2),
                Duration.ofSeconds(2),
                4,
                4,
                timer);
        CallbackDelivery delivery = new CallbackDelivery(
                outbox,
                dispatches.store(),
                client,
                TenantSigners.of(Signatures.TEST_SECRETS, Map.of()),
                schedule,
                clock,
                new dev.sluice.worker.Worker(name),
                senders,
                new DeliverySlots(4, 4, 4),
                Events.to(attempt -> {}),
                new Tracing(OpenTelemetry.noop()));
        return new Worker(dispatches, outbox, delivery);
    }

    private static void finished(StoredDispatches dispatches, String id, String callbackUrl) {
        dispatches.queued(id, callbackUrl, "w", Instant.now());
        assertThat(dispatches.finish(
                        StoredDispatches.result(id, Dispatch.Status.SUCCEEDED, "the answer\n", Instant.now())))
                .isTrue();
    }

    @Test
    void aDeliveryPendingWhenTheWorkerStopsIsSentByTheNextWithTheSameIdAndBody() throws Exception {
        Path db = Files.createTempDirectory("sluice-restart").resolve("store");
        receiver.then(Receiver.status(500));

        Worker first = start(db, "worker-a", Clock.systemUTC());
        finished(first.dispatches(), "d-restart", receiver.url("/hook"));
        first.delivery().sendDue();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> first.outbox().state("d-restart").orElseThrow().attempts() == 1);
        // worker-a stops here: its objects are dropped, the database file stays.

        Worker second = start(db, "worker-b", Clock.systemUTC());
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    second.delivery().sendDue();
                    return second.outbox().state("d-restart").orElseThrow().state() == DeliveryState.DELIVERED;
                });
        List<Receiver.Request> requests = receiver.requests();
        assertThat(requests).hasSize(2);
        assertThat(requests).extracting(r -> r.header("webhook-id")).containsOnly("msg_d-restart");
        assertThat(requests.get(1).bodyText())
                .isEqualTo(requests.get(0).bodyText())
                .isEqualTo(second.dispatches()
                        .store()
                        .storedResult("d-restart")
                        .orElseThrow()
                        .toString());
        assertThat(requests).allMatch(r -> Signatures.verifies(r, Signatures.TEST_SECRETS.get(0)));
    }

    @Test
    void aClaimHeldByADeadWorkerIsTakenOverWhenItsLeaseLapses() throws Exception {
        Path db = Files.createTempDirectory("sluice-lease").resolve("store");
        Worker dead = start(db, "worker-dead", Clock.systemUTC());
        finished(dead.dispatches(), "d-lease", receiver.url("/hook"));
        Instant now = Instant.now();
        // worker-dead claimed it and died before attempting.
        assertThat(dead.outbox().claim(now, 10, "worker-dead", now.plusSeconds(60)))
                .hasSize(1);

        Worker alive = start(db, "worker-alive", Clock.systemUTC());
        assertThat(alive.delivery().sendDue()).isZero();
        assertThat(receiver.requests()).isEmpty();

        Worker later = start(db, "worker-alive", Clock.fixed(now.plusSeconds(61), ZoneOffset.UTC));
        assertThat(later.delivery().sendDue()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests().size() == 1);
        assertThat(receiver.requests().get(0).header("webhook-id")).isEqualTo("msg_d-lease");
    }

    @Test
    void aRestartedWorkerSendsWhatItsPreviousLifeClaimedWithoutWaitingForTheLease() throws Exception {
        Path db = Files.createTempDirectory("sluice-own-claim").resolve("store");
        Worker before = start(db, "worker-same", Clock.systemUTC());
        finished(before.dispatches(), "d-own", receiver.url("/hook"));
        Instant now = Instant.now();
        // It claimed the delivery and was killed before the attempt was recorded.
        assertThat(before.outbox().claim(now, 10, "worker-same", now.plusSeconds(60)))
                .hasSize(1);

        Worker after = start(db, "worker-same", Clock.systemUTC());
        assertThat(after.delivery().sendDue()).as("still held by the lease").isZero();
        after.delivery().resumeOwnClaims();
        assertThat(after.delivery().sendDue()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests().size() == 1);
        assertThat(receiver.requests().get(0).header("webhook-id")).isEqualTo("msg_d-own");

        // Another worker's claim is not its to give back.
        finished(after.dispatches(), "d-other", receiver.url("/hook"));
        Instant later = Instant.now();
        assertThat(after.outbox().claim(later, 10, "worker-other", later.plusSeconds(60)))
                .hasSize(1);
        after.delivery().resumeOwnClaims();
        assertThat(after.delivery().sendDue()).isZero();
    }
}
