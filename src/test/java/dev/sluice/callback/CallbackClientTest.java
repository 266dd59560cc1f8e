package dev.sluice.callback;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.sluice.outbound.AddressPolicy;
import dev.sluice.outbound.GuardedDnsResolver;
import dev.sluice.testsupport.Receiver;

/** Single attempts against real receivers that answer, hang, reset, redirect or sit at refused addresses. */
class CallbackClientTest {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final Receiver receiver = Receiver.on("127.0.0.1");
    /** Where nothing may ever connect: a loopback address the allow-list does not name. */
    private final Receiver canary = Receiver.on("127.0.0.2");

    private final CallbackClient client = new CallbackClient(
            new GuardedDnsResolver(new AddressPolicy(List.of("127.0.0.1")), CallbackClientTest::lookup),
            Duration.ofSeconds(2),
            Duration.ofSeconds(1),
            8,
            4,
            timer);

    /** Test names: one rebinds to the canary, one resolves to the canary and the receiver. */
    private static InetAddress[] lookup(String host) throws UnknownHostException {
        return switch (host) {
            case "rebind.test" -> new InetAddress[] {InetAddress.getByName("127.0.0.2")};
            case "mixed.test" ->
                new InetAddress[] {InetAddress.getByName("127.0.0.2"), InetAddress.getByName("127.0.0.1")};
            default -> InetAddress.getAllByName(host);
        };
    }

    @AfterEach
    void close() throws Exception {
        client.close();
        receiver.close();
        canary.close();
        timer.shutdownNow();
    }

    private CallbackClient.Attempt post(String url) {
        return client.post(client.target(URI.create(url)), Map.of("webhook-id", "msg_x"), body("{\"a\":1}"));
    }

    private static CallbackClient.Body body(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        return new CallbackClient.Body(bytes.length, () -> new ByteArrayInputStream(bytes), false);
    }

    @Test
    void a2xxDeliversAndTheRequestIsExact() {
        CallbackClient.Attempt a = post(receiver.url("/hook"));
        assertThat(a.delivered()).isTrue();
        Receiver.Request r = receiver.requests().get(0);
        assertThat(r.method()).isEqualTo("POST");
        assertThat(r.path()).isEqualTo("/hook");
        assertThat(r.header("webhook-id")).isEqualTo("msg_x");
        assertThat(r.header("content-type")).startsWith("application/json");
        assertThat(r.bodyText()).isEqualTo("{\"a\":1}");
    }

    @Test
    void aRedirectIsNotFollowedAndItsTargetNeverContacted() {
        receiver.then(Receiver.status(302, "Location", canary.url("/stolen")));
        CallbackClient.Attempt a = post(receiver.url("/hook"));
        assertThat(a.delivered()).isFalse();
        assertThat(a.status()).isEqualTo(302);
        assertThat(canary.connections()).isZero();
    }

    @Test
    void aHangingReceiverIsCutAtTheAttemptTimeout() {
        receiver.then(new Receiver.Hang());
        CallbackClient.Attempt a = post(receiver.url("/hook"));
        assertThat(a.failure()).isEqualTo(CallbackClient.Failure.TIMEOUT);
        assertThat(a.durationMs()).isBetween(900L, 10_000L);
    }

    @Test
    void resetsAndEmptyAnswersAreFailuresNotDeliveries() {
        receiver.then(new Receiver.Reset(), new Receiver.Empty());
        assertThat(post(receiver.url("/hook")).failure()).isEqualTo(CallbackClient.Failure.RESET);
        assertThat(post(receiver.url("/hook")).failure()).isEqualTo(CallbackClient.Failure.RESET);
    }

    @Test
    void aNameResolvingToARefusedAddressIsNeverConnected() {
        CallbackClient.Attempt a = post("http://rebind.test:" + canary.port() + "/hook");
        assertThat(a.failure()).isEqualTo(CallbackClient.Failure.REFUSED_ADDRESS);
        assertThat(canary.connections()).isZero();
    }

    @Test
    void onlyThePermittedAddressesOfANameAreUsed() {
        CallbackClient.Attempt a = post("http://mixed.test:" + receiver.port() + "/hook");
        assertThat(a.delivered()).isTrue();
        assertThat(canary.connections()).isZero();
    }

    /**
     * The address a name resolved to is the one connected to, and the one a
     * delivery's slot is counted at (ADR 0073); the request still names the
     * host it was sent to.
     */
    @Test
    void anAttemptConnectsToTheAddressItsTargetResolvedAndNamesItsHost() {
        CallbackClient.Target target = client.target(URI.create("http://mixed.test:" + receiver.port() + "/hook"));
        assertThat(target)
                .isInstanceOfSatisfying(
                        CallbackClient.Target.Address.class,
                        a -> assertThat(a.address())
                                .isEqualTo(new java.net.InetSocketAddress("127.0.0.1", receiver.port())));
        CallbackClient.Target literal = client.target(URI.create(receiver.url("/hook")));
        assertThat(((CallbackClient.Target.Address) literal).address())
                .isEqualTo(((CallbackClient.Target.Address) target).address());

        assertThat(client.post(target, Map.of(), body("{}")).delivered()).isTrue();
        assertThat(receiver.requests())
                .singleElement()
                .satisfies(r -> assertThat(r.header("host")).isEqualTo("mixed.test:" + receiver.port()));
        assertThat(canary.connections()).isZero();
    }

    @Test
    void aLiteralRefusedAddressIsNeverConnectedEither() {
        CallbackClient.Attempt a = post(canary.url("/hook"));
        assertThat(a.failure()).isEqualTo(CallbackClient.Failure.REFUSED_ADDRESS);
        assertThat(canary.connections()).isZero();
    }

    @Test
    void nobodyListeningIsAConnectFailure() throws Exception {
        int port = receiver.port();
        receiver.close();
        // A refused connection is immediate; the generous deadline only keeps a slow first call from reading as one.
        try (CallbackClient patient = new CallbackClient(
                new GuardedDnsResolver(new AddressPolicy(List.of("127.0.0.1")), CallbackClientTest::lookup),
                Duration.ofSeconds(10),
                Duration.ofSeconds(30),
                8,
                4,
                timer)) {
            CallbackClient.Attempt a = patient.post(
                    patient.target(URI.create("http://127.0.0.1:" + port + "/hook")), Map.of(), body("{}"));
            assertThat(a.failure()).isEqualTo(CallbackClient.Failure.CONNECT);
        }
    }

    @Test
    void retryAfterIsReported() {
        receiver.then(Receiver.status(429, "Retry-After", "7"));
        CallbackClient.Attempt a = post(receiver.url("/hook"));
        assertThat(a.status()).isEqualTo(429);
        assertThat(a.retryAfter()).contains(Duration.ofSeconds(7));
    }
}
