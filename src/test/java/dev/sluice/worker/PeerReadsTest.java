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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpServer;

import dev.sluice.store.Jdbc;
import dev.sluice.testsupport.MutableClock;
import dev.sluice.testsupport.TestStores;

/** A relayed read goes only to a live worker's advertised address, only for the reads a relay makes (ADR 0065). */
class PeerReadsTest {

    private static final Instant NOW = Instant.parse("2026-11-28T10:00:00Z");
    private static final String PATH = "/v1/dispatches/review-42/logs/stdout?offset=0&limit=10";

    private final Jdbc jdbc = TestStores.migrated(TestStores.h2());
    private final MutableClock clock = new MutableClock(NOW);
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
                if (exchange.getRequestURI().getPath().contains("slow")) {
                    await(release); // an owner that accepts and never answers
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

    private PeerReads reads(Duration timeout) {
        return new PeerReads(new Peers(jdbc, clock, true), "w-here", timeout, timer);
    }

    @Test
    void aLiveWorkerIsAskedAtItsAddressWithOnlyTheHeadersAReadTakes() throws IOException {
        worker("w-owner", address(), NOW.plusSeconds(10));
        try (PeerReads reads = reads(Duration.ofSeconds(5))) {
            PeerReads.Answer answer = reads.get(
                    "w-owner",
                    PATH,
                    Map.of("Authorization", "Bearer t", "Cookie", "c=1", "X-Forwarded-For", "10.0.0.1"));
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
        assertThat(sent.getFirst("Authorization")).isEqualTo("Bearer t");
        assertThat(sent.getFirst(PeerReads.FORWARDED_BY)).isEqualTo("w-here");
        assertThat(sent).doesNotContainKeys("Cookie", "X-forwarded-for");
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
                assertThat(reads.get("w-owner", path, Map.of())).as(path).isInstanceOf(PeerReads.Answer.Refused.class);
            }
            for (String path : List.of(
                    PATH, "/v1/dispatches/review-42/events", "/v1/dispatches/alpha.review-42/artifacts/a/b%20c.txt")) {
                try (var served = (PeerReads.Answer.Served) reads.get("w-owner", path, Map.of())) {
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
                assertThat(reads.get(worker, PATH, Map.of())).as(worker).isInstanceOf(PeerReads.Answer.Refused.class);
            }
        }
        assertThat(asked).isEmpty();
    }

    @Test
    void onTheEmbeddedStoreNothingIsRelayed() throws IOException {
        worker("w-owner", address(), NOW.plusSeconds(10));
        try (PeerReads reads = new PeerReads(new Peers(jdbc, clock, false), "w-here", Duration.ofSeconds(5), timer)) {
            assertThat(reads.get("w-owner", PATH, Map.of())).isInstanceOf(PeerReads.Answer.Refused.class);
        }
        assertThat(asked).isEmpty();
    }

    @Test
    void anOwnerThatDoesNotAnswerWithinTheDeadlineIsUnreachable() throws IOException {
        worker("w-owner", address(), NOW.plusSeconds(10));
        try (PeerReads reads = reads(Duration.ofMillis(200))) {
            PeerReads.Answer answer = reads.get("w-owner", "/v1/dispatches/slow/events", Map.of());
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
