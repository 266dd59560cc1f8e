package dev.sluice.container;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Whether the Docker engine answers, from a bounded ping. Readiness and
 * admission read the last answer instead of waiting on the engine, so a hung
 * engine never hangs the API or the probes.
 */
public class EngineMonitor {

    /** The last ping's answer. */
    public record Availability(boolean available, String problem, Instant checkedAt) {
    }

    private final DockerClients clients;
    private final Clock clock;
    private final Duration timeout;
    private final ExecutorService pinger;
    private volatile Availability last;

    public EngineMonitor(DockerClients clients, Clock clock, Duration timeout, ExecutorService pinger) {
        this.clients = clients;
        this.clock = clock;
        this.timeout = timeout;
        this.pinger = pinger;
        this.last = new Availability(false, "not checked yet", clock.instant());
    }

    /** Pings the engine, waiting at most the timeout, and records the answer. */
    public Availability check() {
        CompletableFuture<Void> ping = CompletableFuture.runAsync(() -> clients.control().pingCmd().exec(), pinger);
        Availability now;
        try {
            ping.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            now = new Availability(true, null, clock.instant());
        } catch (TimeoutException e) {
            ping.cancel(true);
            now = new Availability(false, "Docker engine did not answer a ping within " + timeout.toMillis() + " ms",
                    clock.instant());
        } catch (ExecutionException e) {
            RuntimeException cause = e.getCause() instanceof RuntimeException re ? re : new RuntimeException(e.getCause());
            now = new Availability(false, ContainerException.from("ping", cause).getMessage(), clock.instant());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return last;
        }
        last = now;
        return now;
    }

    public Availability last() {
        return last;
    }

    public boolean available() {
        return last.available();
    }
}
