package dev.sluice.callback;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.sluice.outbound.AddressPolicy;
import dev.sluice.outbound.GuardedDnsResolver;
import dev.sluice.record.Dispatch;
import dev.sluice.record.StoredDispatches;
import dev.sluice.store.Jdbc;
import dev.sluice.testsupport.Events;
import dev.sluice.testsupport.ManualExecutor;
import dev.sluice.testsupport.MutableClock;
import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.RecordedSpans;
import dev.sluice.testsupport.Signatures;
import dev.sluice.testsupport.TestStores;
import dev.sluice.trace.SpanNames;
import dev.sluice.trace.Tracing;
import dev.sluice.worker.Worker;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;

/**
 * The delivery schedule, with a clock the test moves and attempts the test
 * runs: an embedded store, a real receiver on loopback, no waiting.
 */
class CallbackDeliveryTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
    private static final TenantSigners SIGNERS = TenantSigners.of(Signatures.TEST_SECRETS, Map.of());

    private final MutableClock clock = new MutableClock(T0);
    private final Receiver receiver = Receiver.on("127.0.0.1");
    private final ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor();
    private final ManualExecutor senders = new ManualExecutor();
    private final RetrySchedule schedule = new RetrySchedule(
            List.of(Duration.ZERO, Duration.ofSeconds(10), Duration.ofSeconds(60)), 0, Duration.ofHours(1), () -> 0.5);
    private final Jdbc jdbc = TestStores.migrated(TestStores.h2());
    private final CallbackStore outbox = new CallbackStore(jdbc, () -> schedule.first(clock.instant()));
    private final StoredDispatches dispatches = new StoredDispatches(jdbc, outbox);
    private final List<DeliveryAttempted> attempted = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        receiver.close();
        deadlines.shutdownNow();
    }

    private CallbackDelivery delivery(int maxConcurrent, int maxPerHost) {
        return delivery(new DeliverySlots(maxConcurrent, maxConcurrent, maxPerHost));
    }

    private CallbackDelivery delivery(DeliverySlots slots) {
        return delivery(slots, new Tracing(OpenTelemetry.noop()), SIGNERS);
    }

    private CallbackDelivery delivery(int maxConcurrent, int maxPerHost, Tracing tracing) {
        return delivery(new DeliverySlots(maxConcurrent, maxConcurrent, maxPerHost), tracing, SIGNERS);
    }

    private CallbackDelivery delivery(TenantSigners signers) {
        return delivery(new DeliverySlots(8, 8, 4), new Tracing(OpenTelemetry.noop()), signers);
    }

    /** Test names: both are the receiver's loopback address. */
    private static InetAddress[] lookup(String host) throws java.net.UnknownHostException {
        return host.endsWith(".test")
                ? new InetAddress[] {InetAddress.getByName("127.0.0.1")}
                : InetAddress.getAllByName(host);
    }

    private CallbackDelivery delivery(DeliverySlots slots, Tracing tracing, TenantSigners signers) {
        CallbackClient client = new CallbackClient(
                new GuardedDnsResolver(new AddressPolicy(List.of("127.0.0.1")), CallbackDeliveryTest::lookup),
                Duration.ofSeconds(2),
                Duration.ofSeconds(2),
                4,
                4,
                deadlines);
        return new CallbackDelivery(
                outbox,
                dispatches.store(),
                client,
                signers,
                schedule,
                clock,
                new Worker("worker-1"),
                senders,
                slots,
                Events.to(attempted::add),
                tracing);
    }

    private void finished(String id) {
        finished(id, receiver.url("/hook/" + id));
    }

    private void finished(String id, String callbackUrl) {
        dispatches.queued(id, callbackUrl, "worker-1", T0);
        assertThat(dispatches.finish(StoredDispatches.result(id, Dispatch.Status.SUCCEEDED, "answer\n", T0)))
                .isTrue();
    }

    private CallbackStore.State state(String id) {
        return outbox.state(id).orElseThrow();
    }

    /** One round: claim what is due, then run the attempts it started. */
    private int round(CallbackDelivery delivery) {
        int started = delivery.sendDue();
        senders.runAll();
        return started;
    }

    @Test
    void aStoredResultIsSentAtOnceSignedAndRecordedDelivered() {
        finished("d-1");
        assertThat(round(delivery(8, 4))).isEqualTo(1);

        assertThat(receiver.requests()).singleElement().satisfies(r -> {
            assertThat(r.header("webhook-id")).isEqualTo("msg_d-1");
            assertThat(r.header("webhook-timestamp")).isEqualTo(Long.toString(T0.getEpochSecond()));
            assertThat(Signatures.verifies(r, Signatures.TEST_SECRETS.get(0))).isTrue();
            assertThat(r.bodyText())
                    .isEqualTo(
                            dispatches.store().storedResult("d-1").orElseThrow().toString());
            assertThat(r.header("traceparent"))
                    .as("no trace kept, none carried")
                    .isNull();
        });
        CallbackStore.State s = state("d-1");
        assertThat(s.state()).isEqualTo(DeliveryState.DELIVERED);
        assertThat(s.attempts()).isEqualTo(1);
        assertThat(s.deliveredAt()).isEqualTo(T0);
        assertThat(round(delivery(8, 4))).isZero();
    }

    /** Each attempt is a client span of the dispatch's trace, and says so in a header the signature leaves out. */
    @Test
    void eachAttemptCarriesTheDispatchsTraceInASpanOfItsOwn() {
        String trace = "4bf92f3577b34da6a3ce929d0e0e4736";
        String dispatchSpan = "a3ce929d0e0e4736";
        RecordedSpans spans = new RecordedSpans();
        receiver.then(Receiver.status(500));
        finished("d-1");
        jdbc.update(
                "UPDATE dispatches SET trace_parent = ? WHERE id = ?",
                "00-" + trace + "-" + dispatchSpan + "-01",
                "d-1");
        CallbackDelivery delivery = delivery(8, 4, new Tracing(spans.openTelemetry()));
        round(delivery);
        clock.advance(Duration.ofSeconds(10));
        round(delivery);

        List<SpanData> attempts = spans.ended();
        assertThat(attempts).hasSize(2).allSatisfy(span -> {
            assertThat(span.getName()).isEqualTo(SpanNames.CALLBACK);
            assertThat(span.getKind()).isEqualTo(SpanKind.CLIENT);
            assertThat(span.getTraceId()).isEqualTo(trace);
            assertThat(span.getParentSpanId()).isEqualTo(dispatchSpan);
        });
        assertThat(attempts.get(0).getAttributes().get(AttributeKey.longKey(SpanNames.HTTP_STATUS)))
                .isEqualTo(500L);
        assertThat(attempts.get(1).getAttributes().get(AttributeKey.longKey(SpanNames.CALLBACK_ATTEMPT)))
                .isEqualTo(2L);
        assertThat(receiver.requests()).hasSize(2);
        for (int i = 0; i < 2; i++) {
            Receiver.Request request = receiver.requests().get(i);
            assertThat(request.header("traceparent"))
                    .isEqualTo("00-" + trace + "-" + attempts.get(i).getSpanId() + "-01");
            assertThat(Signatures.verifies(request, Signatures.TEST_SECRETS.get(0)))
                    .isTrue();
        }
    }

    @Test
    void onlyASingleRecordShowsTheAttemptsAListingShowsNone() {
        finished("d-1");
        round(delivery(8, 4));
        assertThat(state("d-1").history()).hasSize(1);
        assertThat(outbox.states(List.of("d-1")).get("d-1").history()).isEmpty();
    }

    @Test
    void aFailedAttemptIsTriedAgainOnTheScheduleAndNotBefore() {
        receiver.then(Receiver.status(500));
        finished("d-1");
        CallbackDelivery delivery = delivery(8, 4);
        round(delivery);
        assertThat(state("d-1").state()).isEqualTo(DeliveryState.PENDING);
        assertThat(state("d-1").lastStatus()).isEqualTo(500);
        assertThat(state("d-1").nextAttemptAt()).isEqualTo(T0.plusSeconds(10));

        clock.advance(Duration.ofSeconds(9));
        assertThat(round(delivery)).isZero();
        clock.advance(Duration.ofSeconds(1));
        assertThat(round(delivery)).isEqualTo(1);
        assertThat(state("d-1").state()).isEqualTo(DeliveryState.DELIVERED);
        assertThat(state("d-1").history())
                .extracting(CallbackStore.AttemptView::status)
                .containsExactly(500, 200);
        List<Receiver.Request> requests = receiver.requests();
        assertThat(requests.get(1).bodyText()).isEqualTo(requests.get(0).bodyText());
        assertThat(requests.get(1).header("webhook-timestamp"))
                .isEqualTo(Long.toString(T0.plusSeconds(10).getEpochSecond()));
        assertThat(attempted)
                .extracting(DeliveryAttempted::outcome, DeliveryAttempted::failure)
                .containsExactly(
                        tuple(DeliveryAttempted.Outcome.RETRY, "http_5xx"),
                        tuple(DeliveryAttempted.Outcome.DELIVERED, null));
    }

    @Test
    void whenTheScheduleRunsOutTheResultIsDeadLettered() {
        receiver.otherwise(Receiver.status(503));
        finished("d-1");
        CallbackDelivery delivery = delivery(8, 4);
        for (int i = 0; i < 5; i++) {
            round(delivery);
            clock.advance(Duration.ofMinutes(2));
        }
        assertThat(receiver.requests()).hasSize(3);
        CallbackStore.State s = state("d-1");
        assertThat(s.state()).isEqualTo(DeliveryState.DEAD);
        assertThat(s.attempts()).isEqualTo(3);
        assertThat(s.lastStatus()).isEqualTo(503);
        assertThat(s.lastError()).isEqualTo("no 2xx answer within the retry schedule");
        assertThat(attempted)
                .extracting(DeliveryAttempted::outcome)
                .containsExactly(
                        DeliveryAttempted.Outcome.RETRY,
                        DeliveryAttempted.Outcome.RETRY,
                        DeliveryAttempted.Outcome.EXHAUSTED);
    }

    @Test
    void goneStopsDeliveryAtOnce() {
        receiver.otherwise(Receiver.status(410));
        finished("d-1");
        round(delivery(8, 4));
        clock.advance(Duration.ofHours(1));
        round(delivery(8, 4));
        assertThat(receiver.requests()).hasSize(1);
        assertThat(state("d-1").state()).isEqualTo(DeliveryState.DEAD);
        assertThat(attempted).singleElement().satisfies(a -> {
            assertThat(a.outcome()).isEqualTo(DeliveryAttempted.Outcome.GONE);
            assertThat(a.outcome().deadLetter()).isTrue();
            assertThat(a.failure()).isEqualTo("http_4xx");
        });
    }

    @Test
    void aRetryAfterPushesTheNextAttemptBeyondTheSchedule() {
        receiver.then(Receiver.status(503, "Retry-After", "120"));
        finished("d-1");
        round(delivery(8, 4));
        assertThat(state("d-1").nextAttemptAt()).isEqualTo(T0.plusSeconds(120));
    }

    @Test
    void aRedeliveryStartsANewRoundNowWithTheSameIdAndBody() {
        finished("d-1");
        CallbackDelivery delivery = delivery(8, 4);
        round(delivery);
        clock.advance(Duration.ofMinutes(1));
        assertThat(outbox.redeliver("d-1", clock.instant())).isTrue();
        assertThat(round(delivery)).isEqualTo(1);
        List<Receiver.Request> requests = receiver.requests();
        assertThat(requests).extracting(r -> r.header("webhook-id")).containsExactly("msg_d-1", "msg_d-1");
        assertThat(requests.get(1).bodyText()).isEqualTo(requests.get(0).bodyText());
        assertThat(state("d-1").attempts()).isEqualTo(2);
    }

    /**
     * A dispatch may be named after a group's message ({@code g_final} and group
     * {@code g}): both are queued, each sends its own body, and the record
     * shows only the result's attempts.
     */
    @Test
    void aMessageWithTheWebhookIdOfAResultIsDeliveredBesideIt() {
        receiver.then(Receiver.status(200), Receiver.status(503));
        jdbc.transaction("queue", tx -> {
            outbox.enqueueMessage(
                    tx, "default", "msg_g_final", receiver.url("/group"), "{\"final\":true}".getBytes(UTF_8), T0);
            return null;
        });
        clock.advance(Duration.ofSeconds(1));
        finished("g_final");

        CallbackDelivery delivery = delivery(8, 4);
        assertThat(round(delivery)).isEqualTo(2);

        assertThat(receiver.requests())
                .extracting(Receiver.Request::path, r -> r.header("webhook-id"))
                .containsExactly(tuple("/group", "msg_g_final"), tuple("/hook/g_final", "msg_g_final"));
        assertThat(receiver.requests().get(0).bodyText()).isEqualTo("{\"final\":true}");
        assertThat(receiver.requests().get(1).bodyText())
                .isEqualTo(
                        dispatches.store().storedResult("g_final").orElseThrow().toString());
        CallbackStore.State result = state("g_final");
        assertThat(result.state()).isEqualTo(DeliveryState.PENDING);
        assertThat(result.history())
                .extracting(CallbackStore.AttemptView::status)
                .containsExactly(503);
        assertThat(outbox.pending(Duration.ofSeconds(5))).isEqualTo(1);
    }

    /**
     * The per-host limit is kept at the address an attempt connects to, per
     * tenant (ADR 0073): with the tenant's one slot at the receiver's address
     * taken, its deliveries to that address go back to the outbox by whatever
     * name they reach it, while another tenant's are sent.
     */
    @Test
    void namesOfOneAddressShareItsLimitAndAnotherTenantHasItsOwn() {
        finished("d-1", "http://one.test:" + receiver.port() + "/hook/d-1");
        finished("d-2", "http://two.test:" + receiver.port() + "/hook/d-2");
        finished("quiet.d-3", "http://one.test:" + receiver.port() + "/hook/d-3");
        DeliverySlots slots = new DeliverySlots(8, 8, 1);
        CallbackDelivery delivery = delivery(slots);
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), receiver.port());
        assertThat(slots.takeAddress("default", address)).isTrue(); // an attempt of the default tenant's is there

        assertThat(round(delivery)).isEqualTo(3);
        assertThat(receiver.requests()).extracting(r -> r.header("webhook-id")).containsExactly("msg_quiet.d-3");
        assertThat(state("d-1").attempts()).isZero();
        assertThat(state("d-2").attempts()).isZero();

        slots.giveAddress("default", address);
        assertThat(round(delivery)).isEqualTo(2);
        assertThat(receiver.requests())
                .extracting(r -> r.header("webhook-id"))
                .containsExactlyInAnyOrder("msg_quiet.d-3", "msg_d-1", "msg_d-2");
        assertThat(receiver.requests())
                .extracting(r -> r.header("host"))
                .contains("one.test:" + receiver.port(), "two.test:" + receiver.port());
        assertThat(slots.addressesHeld()).isZero();
    }

    /**
     * However many of one tenant's deliveries are due, and however long, they
     * never stand before another tenant's in the claim: each tenant is claimed
     * within its room, the one due longest first.
     */
    @Test
    void aTenantsBacklogNeverKeepsAnotherTenantsDeliveryWaiting() {
        for (int i = 0; i < 10; i++) {
            finished("noisy.d-" + i);
        }
        clock.advance(Duration.ofSeconds(30));
        finished("quiet.d-1");
        CallbackDelivery delivery = delivery(new DeliverySlots(4, 2, 4));

        assertThat(delivery.sendDue()).isEqualTo(3); // two of noisy's share, and quiet's one
        // noisy holds its share until its attempts end: the next round claims none of its backlog
        assertThat(delivery.sendDue()).isZero();
        senders.runAll();

        assertThat(receiver.requests())
                .extracting(r -> r.header("webhook-id"))
                .hasSize(3)
                .contains("msg_quiet.d-1")
                .filteredOn(id -> id.startsWith("msg_noisy."))
                .hasSize(2);
        assertThat(round(delivery)).isEqualTo(2);
        assertThat(receiver.requests()).hasSize(5);
    }

    @Test
    void noMoreAttemptsStartThanTheWorkerMayRunAtOnce() {
        Receiver other = Receiver.on("127.0.0.1");
        try {
            finished("d-1");
            dispatches.queued("d-2", other.url("/hook"), "worker-1", T0);
            dispatches.finish(StoredDispatches.result("d-2", Dispatch.Status.SUCCEEDED, "", T0));
            CallbackDelivery delivery = delivery(1, 4);
            assertThat(delivery.sendDue()).isEqualTo(1);
            assertThat(delivery.sendDue()).isZero();
            senders.runAll();
            assertThat(round(delivery)).isEqualTo(1);
            assertThat(receiver.requests().size() + other.requests().size()).isEqualTo(2);
        } finally {
            other.close();
        }
    }

    private static final String BETA = Signatures.freshSecret();

    /** A tenant's results, and its group's messages, are signed with its own secrets; others' with the worker's. */
    @Test
    void eachTenantsMessagesAreSignedWithItsOwnSecrets() {
        finished("d-1");
        finished("beta.d-1");
        jdbc.transaction("queue", tx -> {
            outbox.enqueueMessage(tx, "beta", "msg_beta.g-1_final", receiver.url("/group"), "{}".getBytes(UTF_8), T0);
            return null;
        });
        round(delivery(TenantSigners.of(Signatures.TEST_SECRETS, Map.of("beta", List.of(BETA)))));

        Map<String, Receiver.Request> byId =
                receiver.requests().stream().collect(Collectors.toMap(r -> r.header("webhook-id"), r -> r));
        assertThat(byId).containsOnlyKeys("msg_d-1", "msg_beta.d-1", "msg_beta.g-1_final");
        assertThat(Signatures.verifies(byId.get("msg_d-1"), Signatures.TEST_SECRETS.get(0)))
                .isTrue();
        assertThat(Signatures.verifies(byId.get("msg_d-1"), BETA)).isFalse();
        for (String beta : List.of("msg_beta.d-1", "msg_beta.g-1_final")) {
            assertThat(Signatures.verifies(byId.get(beta), BETA)).as(beta).isTrue();
            assertThat(Signatures.verifies(byId.get(beta), Signatures.TEST_SECRETS.get(0)))
                    .as(beta)
                    .isFalse();
            assertThat(byId.get(beta).header("webhook-signature")).as(beta).doesNotContain(" ");
        }
    }

    /** The secrets are chosen at each attempt: a retry after a restart with rotated secrets signs with those. */
    @Test
    void aRetryAfterARotationSignsWithTheSecretsConfiguredNow() {
        String next = Signatures.freshSecret();
        receiver.then(Receiver.status(500));
        finished("beta.d-1");
        round(delivery(TenantSigners.of(Signatures.TEST_SECRETS, Map.of("beta", List.of(BETA)))));
        clock.advance(Duration.ofSeconds(10));
        round(delivery(TenantSigners.of(Signatures.TEST_SECRETS, Map.of("beta", List.of(next, BETA)))));
        clock.advance(Duration.ofSeconds(60));
        assertThat(outbox.redeliver("beta.d-1", clock.instant())).isTrue();
        round(delivery(TenantSigners.of(Signatures.TEST_SECRETS, Map.of("beta", List.of(next)))));

        List<Receiver.Request> requests = receiver.requests();
        assertThat(requests).hasSize(3);
        assertThat(Signatures.verifies(requests.get(0), BETA)).isTrue();
        assertThat(Signatures.verifies(requests.get(0), next)).isFalse();
        assertThat(Signatures.verifies(requests.get(1), next)).isTrue();
        assertThat(Signatures.verifies(requests.get(1), BETA)).isTrue();
        assertThat(Signatures.verifies(requests.get(2), next)).isTrue();
        assertThat(Signatures.verifies(requests.get(2), BETA)).isFalse();
    }

    /** A delivery whose tenant no secret serves any more is not sent unsigned: it fails, and is tried again. */
    @Test
    void aDeliveryNoSecretServesIsNotSentButTriedAgainOnTheSchedule() {
        finished("beta.d-1");
        round(delivery(TenantSigners.of(List.of(), Map.of())));
        assertThat(receiver.requests()).isEmpty();
        CallbackStore.State s = state("beta.d-1");
        assertThat(s.state()).isEqualTo(DeliveryState.PENDING);
        assertThat(s.lastError()).isEqualTo("no signing secret serves this tenant");
        assertThat(attempted)
                .extracting(DeliveryAttempted::outcome, DeliveryAttempted::failure)
                .containsExactly(tuple(DeliveryAttempted.Outcome.RETRY, "unsigned"));

        clock.advance(Duration.ofSeconds(10));
        round(delivery(TenantSigners.of(List.of(), Map.of("beta", List.of(BETA)))));
        assertThat(receiver.requests())
                .singleElement()
                .satisfies(r -> assertThat(Signatures.verifies(r, BETA)).isTrue());
        assertThat(state("beta.d-1").state()).isEqualTo(DeliveryState.DELIVERED);
    }
}
