package dev.sluice.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpServer;

import dev.sluice.store.Jdbc;
import dev.sluice.testsupport.MutableClock;
import dev.sluice.testsupport.TestStores;

/**
 * A relayed read goes only to a live worker's advertised address, only for
 * the reads a relay makes (ADR 0065), signed by the replicas for its tenant
 * and never with the client's credentials (ADR 0072). The owner here is a
 * real HTTP server that keeps what arrives.
 */
class PeerReadsTest {

    private static final Instant NOW = Instant.parse("2026-11-28T10:00:00Z");
    private static final String PATH = "/v1/dispatches/review-42/logs/stdout?offset=0&limit=10";

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final String SECRET = "c2x1aWNlLXJlbGF5LXRlc3Qtc2VjcmV0LTAxMjM0NTY3ODk=";

    private final Jdbc jdbc = TestStores.migrated(TestStores.h2());
    private final MutableClock clock = new MutableClock(NOW);
    private final List<String> targets = new CopyOnWriteArrayList<>();
    private final AtomicBoolean refuse = new AtomicBoolean();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final List<Headers> asked = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private final HttpServer owner = owner();

    private HttpServer owner() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.setExecutor(Executors.newCachedThreadPool());
            server.createContext("/", exchange -> {
                asked.add(exchange.getRequestHeaders());
                targets.add(exchange.getRequestURI().toString());
                if (exchange.getRequestURI().getPath().contains("slow")) {
                    await(release); // an owner that accepts and never answers
                }
                if (refuse.get()) {
                    exchange.sendResponseHeaders(401, -1);
                    exchange.close();
                    return;
                }
                byte[] body = "0123456789".getBytes(StandardCharsets.US_ASCII);
                exchange.getResponseHeaders().add("Sluice-Log-End", "true");
                exchange.getResponseHeaders().add("Set-Cookie", "session=owner");
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterEach
    void stop() {
        release.countDown();
        owner.stop(0);
        timer.shutdownNow();
    }

    private String address() {
        return "http://127.0.0.1:" + owner.getAddress().getPort();
    }

    private void worker(String id, String address, Instant leaseUntil) {
        jdbc.update(
                "INSERT INTO workers (id, lease_until, started_at, advertised_url) VALUES (?, ?, ?, ?)",
                id,
                leaseUntil,
                NOW,
                address);
    }

    private RelaySignatures signatures(String self, Optional<List<String>> secrets) {
        return RelaySignatures.of(secrets, self, clock);
    }

    private PeerReads reads(Duration timeout) {
        return new PeerReads(
                new Peers(jdbc, clock, true), signatures("w-here", Optional.of(List.of(SECRET))), timeout, timer);
    }

    @Test
    void aLiveWorkerIsAskedAtItsAddressWithOnlyTheHeadersAReadTakesSignedAndNeverTheClientsToken() throws IOException {
        worker("w-owner", address(), NOW.plusSeconds(10));
        try (PeerReads reads = reads(Duration.ofSeconds(5))) {
            PeerReads.Answer answer = reads.get(
                    "w-owner",
                    "alpha",
                    PATH,
                    Map.of(
                            "Authorization",
                            "Bearer alpha-client-token-0123",
                            "Cookie",
                            "c=1",
                            "X-Forwarded-For",
                            "10.0.0.1",
                            "Range",
                            "bytes=0-9"));
            assertThat(answer).isInstanceOf(PeerReads.Answer.Served.class);
            try (PeerReads.Answer.Served served = (PeerReads.Answer.Served) answer) {
                assertThat(served.status()).isEqualTo(200);
                assertThat(served.body().readAllBytes())
                        .asString(StandardCharsets.US_ASCII)
                        .isEqualTo("0123456789");
                assertThat(served.headers())
                        .containsEntry("sluice-log-end", "true")
                        .doesNotContainKey("set-cookie");
            }
        }
        Headers sent = asked.get(0);
        assertThat(sent).doesNotContainKeys("Authorization", "Cookie", "X-forwarded-for", "Sluice-forwarded-by");
        assertThat(sent.values().stream().flatMap(List::stream)).noneMatch(v -> v.contains("alpha-client-token"));
        assertThat(sent.getFirst("Range")).isEqualTo("bytes=0-9");
        // The owner takes it as what it is: a read of this path for alpha, signed by a replica, once.
        RelaySignatures owner = signatures("w-owner", Optional.of(List.of(SECRET)));
        String signature = sent.getFirst(RelaySignatures.HEADER);
        assertThat(targets).containsExactly(PATH);
        assertThat(owner.verify(signature, "GET", targets.get(0)))
                .isEqualTo(new RelaySignatures.Verdict.Accepted("alpha"));
        assertThat(owner.verify(signature, "GET", targets.get(0))).isInstanceOf(RelaySignatures.Verdict.Refused.class);
    }

    @Test
    void withoutARelaySecretNothingIsSentAndAnOwnerThatRefusesTheSignatureIsSaidTo() throws IOException {
        worker("w-owner", address(), NOW.plusSeconds(10));
        try (PeerReads unsigned = new PeerReads(
                new Peers(jdbc, clock, true),
                signatures("w-here", Optional.empty()),
                TIMEOUT,
                Executors.newSingleThreadScheduledExecutor())) {
            assertThat(unsigned.get("w-owner", "alpha", PATH, Map.of())).isInstanceOf(PeerReads.Answer.Unsigned.class);
        }
        assertThat(asked).isEmpty();

        refuse.set(true); // an owner whose secret differs answers 401
        try (PeerReads reads = reads(TIMEOUT)) {
            PeerReads.Answer answer = reads.get("w-owner", "alpha", PATH, Map.of());
            assertThat(answer).isInstanceOf(PeerReads.Answer.Unsigned.class);
            assertThat(((PeerReads.Answer.Unsigned) answer).why()).contains("refused this worker's signature");
        }
        assertThat(asked).hasSize(1);
    }

    @Test
    void onlyTheReadsOfADispatchAreRelayed() throws IOException {
        worker("w-owner", address(), NOW.plusSeconds(10));
        try (PeerReads reads = reads(Duration.ofSeconds(5))) {
            for (String path : List.of(
                    "/q/metrics",
                    "/mcp",
                    "/v1/dispatches",
                    "/v1/dispatches/review-42",
                    "/v1/dispatches/review-42/redeliver",
                    "/v1/dispatches/review-42/logs/stdin",
                    "/v1/dispatches/../q/metrics",
                    "/v1/dispatches/review-42/artifacts/../../../q/metrics",
                    "/v1/dispatches/review-42/artifacts/%2e%2e/x",
                    "/v1/dispatches/review-42/artifacts/a%2Fb",
                    "//evil.example/v1/dispatches/review-42/events",
                    "/v1/dispatches/review-42/events?x=1",
                    "/v1/dispatches/review-42/logs/stdout?offset=0#x",
                    "http://evil.example/v1/dispatches/review-42/events")) {
                assertThat(reads.get("w-owner", "alpha", path, Map.of()))
                        .as(path)
                        .isInstanceOf(PeerReads.Answer.Refused.class);
            }
            for (String path : List.of(
                    PATH, "/v1/dispatches/review-42/events", "/v1/dispatches/alpha.review-42/artifacts/a/b%20c.txt")) {
                try (var served = (PeerReads.Answer.Served) reads.get("w-owner", "alpha", path, Map.of())) {
                    assertThat(served.status()).as(path).isEqualTo(200);
                }
            }
        }
        assertThat(asked).hasSize(3);
    }

    @Test
    void noAddressButALiveWorkersOwnIsAsked() throws IOException {
        worker("w-lapsed", address(), NOW.minusSeconds(1));
        worker("w-silent", null, NOW.plusSeconds(10));
        worker("w-crooked", address() + "/v1/dispatches/other?", NOW.plusSeconds(10));
        try (PeerReads reads = reads(Duration.ofSeconds(5))) {
            for (String worker : List.of("w-unknown", "w-lapsed", "w-silent", "w-crooked")) {
                assertThat(reads.get(worker, "alpha", PATH, Map.of()))
                        .as(worker)
                        .isInstanceOf(PeerReads.Answer.Refused.class);
            }
        }
        assertThat(asked).isEmpty();
    }

    @Test
    void onTheEmbeddedStoreNothingIsRelayed() throws IOException {
        worker("w-owner", address(), NOW.plusSeconds(10));
        try (PeerReads reads = new PeerReads(
                new Peers(jdbc, clock, false), signatures("w-here", Optional.of(List.of(SECRET))), TIMEOUT, timer)) {
            assertThat(reads.get("w-owner", "alpha", PATH, Map.of())).isInstanceOf(PeerReads.Answer.Refused.class);
        }
        assertThat(asked).isEmpty();
    }

    @Test
    void anOwnerThatDoesNotAnswerWithinTheDeadlineIsUnreachable() throws IOException {
        worker("w-owner", address(), NOW.plusSeconds(10));
        try (PeerReads reads = reads(Duration.ofMillis(200))) {
            PeerReads.Answer answer = reads.get("w-owner", "alpha", "/v1/dispatches/slow/events", Map.of());
            assertThat(answer).isInstanceOf(PeerReads.Answer.Unreachable.class);
        }
        assertThat(asked).hasSize(1);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
