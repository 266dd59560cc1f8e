package dev.sluice.container;

import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Whether the Docker engine answers, from a bounded ping on a connection of
 * its own (so it never queues behind control calls). Readiness and admission
 * read the last answer instead of waiting on the engine, so a hung engine
 * never hangs the API or the probes.
 *
 * <p>An engine that refuses the connection, or whose socket is missing, is
 * down at once. One that is merely slow (a ping timing out while it creates
 * dozens of containers) is down only after {@link #SLOW_PINGS_TO_DOWN} slow
 * pings in a row: a busy engine is not a missing one.
 */
public class EngineMonitor {

    static final int SLOW_PINGS_TO_DOWN = 3;

    /** The engine's state as last seen. */
    public record Availability(boolean available, String problem, Instant checkedAt) {}

    private final URI host;
    private final Duration connectTimeout;
    private final Duration timeout;
    private final ExecutorService pinger;
    private final Clock clock;
    private final AtomicReference<Availability> last;
    private int slowPings;

    public EngineMonitor(URI host, Duration connectTimeout, Duration timeout, ExecutorService pinger, Clock clock) {
        this.host = host;
        this.connectTimeout = connectTimeout;
        this.timeout = timeout;
        this.pinger = pinger;
        this.clock = clock;
        this.last = new AtomicReference<>(new Availability(false, "not checked yet", clock.instant()));
    }

    /** Pings the engine, waiting at most the timeout, and records the answer. */
    public synchronized Availability check() {
        AtomicReference<EngineSocket> socket = new AtomicReference<>();
        CompletableFuture<Integer> ping = CompletableFuture.supplyAsync(
                () -> {
                    try (EngineSocket s = EngineSocket.connect(host, connectTimeout)) {
                        socket.set(s);
                        return s.ping();
                    } catch (IOException e) {
                        throw new IllegalStateException(e.getMessage() == null ? "connection failed" : e.getMessage());
                    }
                },
                pinger);
        Availability now;
        try {
            int status = ping.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            slowPings = 0;
            now = status == 200
                    ? new Availability(true, null, clock.instant())
                    : new Availability(false, "Docker engine answered its ping with " + status, clock.instant());
        } catch (TimeoutException e) {
            slowPings++;
            String problem = "Docker engine did not answer a ping within " + timeout.toMillis() + " ms (" + slowPings
                    + " in a row)";
            now = new Availability(slowPings < SLOW_PINGS_TO_DOWN && last.get().available(), problem, clock.instant());
        } catch (ExecutionException e) {
            slowPings = 0;
            now = new Availability(
                    false, "Docker engine unreachable (" + e.getCause().getMessage() + ")", clock.instant());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return last.get();
        } finally {
            // Unblocks a ping still waiting for its answer; the ping closes its socket itself otherwise.
            EngineSocket s = socket.get();
            if (s != null) {
                s.close();
            }
        }
        last.set(now);
        return now;
    }

    public Availability last() {
        return last.get();
    }

    public boolean available() {
        return last.get().available();
    }
}
