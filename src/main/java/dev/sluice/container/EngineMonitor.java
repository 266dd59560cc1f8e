package dev.sluice.container;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

import com.github.dockerjava.transport.DockerHttpClient;

/**
 * Whether the Docker engine answers its ping, which is bounded by the ping
 * timeout (ADR 0016). Readiness and admission read the last answer instead of
 * waiting on the engine, so a hung engine never hangs the API or the probes.
 *
 * <p>An engine that refuses the connection, or whose socket is missing, is
 * down at once. One whose ping is merely slow (while it creates dozens of
 * containers) is down only after {@link #SLOW_PINGS_TO_DOWN} slow pings in a
 * row: a busy engine is not a missing one.
 */
public class EngineMonitor {

    static final int SLOW_PINGS_TO_DOWN = 3;

    private static final DockerHttpClient.Request PING = DockerHttpClient.Request.builder()
            .method(DockerHttpClient.Request.Method.GET)
            .path("/_ping")
            .build();

    /**
     * The engine's state as last seen.
     *
     * @param problem why it is down, or what is off while it is still up; {@code null} when all is well
     */
    public record Availability(boolean available, String problem, Instant checkedAt) {}

    private final DockerClients clients;
    private final Duration pingTimeout;
    private final Clock clock;
    private final AtomicReference<Availability> last;
    private int slowPings;

    public EngineMonitor(DockerClients clients, Duration pingTimeout, Clock clock) {
        this.clients = clients;
        this.pingTimeout = pingTimeout;
        this.clock = clock;
        this.last = new AtomicReference<>(new Availability(false, "not checked yet", clock.instant()));
    }

    /** Pings the engine, waiting at most the ping timeout, and records the answer. */
    public synchronized Availability check() {
        Availability now = ping();
        last.set(now);
        return now;
    }

    private Availability ping() {
        try (DockerHttpClient.Response answer = clients.pingHttp().execute(PING)) {
            slowPings = 0;
            int status = answer.getStatusCode();
            return status == 200
                    ? new Availability(true, null, clock.instant())
                    : new Availability(false, "Docker engine answered its ping with " + status, clock.instant());
        } catch (RuntimeException e) {
            ContainerException failure = ContainerException.from("ping", e);
            if (!failure.timedOut()) {
                slowPings = 0;
                return new Availability(false, failure.getMessage(), clock.instant());
            }
            slowPings++;
            String problem = "Docker engine did not answer a ping within "
                    + EngineTimeoutException.readable(pingTimeout) + " (" + slowPings + " in a row)";
            return new Availability(slowPings < SLOW_PINGS_TO_DOWN && last.get().available(), problem, clock.instant());
        }
    }

    public Availability last() {
        return last.get();
    }

    public boolean available() {
        return last().available();
    }
}
