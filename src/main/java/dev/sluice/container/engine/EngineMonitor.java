package dev.sluice.container.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import com.github.dockerjava.transport.DockerHttpClient;

/**
 * Whether the Docker engine answers: its ping, bounded by the ping timeout,
 * and its calls, which must not be timing out (ADR 0016). Readiness and
 * admission read the last answer instead of waiting on the engine, so a hung
 * engine never hangs the API or the probes.
 *
 * <p>An engine that refuses the connection, or whose socket is missing, is
 * down at once. One whose ping is merely slow (while it creates dozens of
 * containers) is down only after {@link #SLOW_PINGS_TO_DOWN} slow pings in a
 * row: a busy engine is not a missing one. An engine whose calls time out is
 * down even while it answers its ping, until {@link EngineCalls} says they are
 * answered again; while they are not, each check sends a probe (a listing of
 * at most one container) so that recovery does not wait for other traffic.
 *
 * <p>The first time the engine answers its ping it is asked which engine it
 * is (ADR 0078); one that cannot do what the configuration asks of it stays
 * down for good, the refusal as its problem, and no dispatch starts on it.
 */
public class EngineMonitor {

    static final int SLOW_PINGS_TO_DOWN = 3;

    private static final DockerHttpClient.Request PING = DockerHttpClient.Request.builder()
            .method(DockerHttpClient.Request.Method.GET)
            .path("/_ping")
            .build();
    private static final DockerHttpClient.Request PROBE = DockerHttpClient.Request.builder()
            .method(DockerHttpClient.Request.Method.GET)
            .path("/containers/json?limit=1")
            .build();

    /**
     * The engine's state as last seen.
     *
     * @param problem        why it is down, or what is off while it is still up; {@code null} when all is well
     * @param callsTimingOut true when it is down because its calls time out, whatever its ping says
     */
    public record Availability(boolean available, String problem, boolean callsTimingOut, Instant checkedAt) {}

    private final DockerClients clients;
    private final Duration pingTimeout;
    private final Executor prober;
    private final Clock clock;
    private final AtomicReference<Availability> lastPing;
    private final AtomicBoolean probing = new AtomicBoolean();
    private final Function<EngineIdentity, Optional<String>> fit;
    private int slowPings;

    /** Why the engine cannot serve this worker, once it has said which it is; null until then. */
    private volatile Optional<String> unfit;

    /** @param prober runs the probes, which may take up to the call timeout */
    public EngineMonitor(DockerClients clients, Duration pingTimeout, Executor prober, Clock clock) {
        this(clients, pingTimeout, prober, clock, null);
    }

    /**
     * @param fit why an engine cannot serve this worker ({@link EngineIdentity#refusal}); empty when it can;
     *            null asks the engine nothing of which it is
     */
    public EngineMonitor(
            DockerClients clients,
            Duration pingTimeout,
            Executor prober,
            Clock clock,
            Function<EngineIdentity, Optional<String>> fit) {
        this.fit = fit;
        this.clients = clients;
        this.pingTimeout = pingTimeout;
        this.prober = prober;
        this.clock = clock;
        this.lastPing = new AtomicReference<>(new Availability(false, "not checked yet", false, clock.instant()));
    }

    /** Pings the engine, waiting at most the ping timeout, probes its calls if they were timing out, and records it. */
    public synchronized Availability check() {
        Availability ping = ping();
        lastPing.set(ping);
        if (ping.available() && clients.calls().awaitingAnswer()) {
            probe();
        }
        return last();
    }

    private Availability ping() {
        try (DockerHttpClient.Response answer = clients.pingHttp().execute(PING)) {
            slowPings = 0;
            int status = answer.getStatusCode();
            if (status != 200) {
                return new Availability(
                        false, "Docker engine answered its ping with " + status, false, clock.instant());
            }
            return unfit().map(refusal -> new Availability(false, refusal, false, clock.instant()))
                    .orElseGet(() -> new Availability(true, null, false, clock.instant()));
        } catch (RuntimeException e) {
            ContainerException failure = ContainerException.from("ping", e);
            if (!failure.timedOut()) {
                slowPings = 0;
                return new Availability(false, failure.getMessage(), false, clock.instant());
            }
            slowPings++;
            String problem = "Docker engine did not answer a ping within "
                    + EngineTimeoutException.readable(pingTimeout) + " (" + slowPings + " in a row)";
            return new Availability(
                    slowPings < SLOW_PINGS_TO_DOWN && lastPing.get().available(), problem, false, clock.instant());
        }
    }

    /** Why the engine cannot serve this worker, judged the first time it says which it is (ADR 0078). */
    private Optional<String> unfit() {
        Optional<String> judged = unfit;
        if (judged == null) {
            if (fit == null) {
                return Optional.empty();
            }
            judged = fit.apply(clients.identity()); // a failed answer is thrown, and asked again next time
            unfit = judged;
        }
        return judged;
    }

    /** Why the engine cannot serve this worker; empty while it can, or has not yet said which engine it is. */
    public Optional<String> refusal() {
        Optional<String> judged = unfit;
        return judged == null ? Optional.empty() : judged;
    }

    /** One call through the control client at a time; the client records its answer or its timeout. */
    private void probe() {
        if (!probing.compareAndSet(false, true)) {
            return;
        }
        prober.execute(() -> {
            try (DockerHttpClient.Response answer = clients.controlHttp().execute(PROBE)) {
                answer.getStatusCode();
            } catch (RuntimeException e) {
                // recorded as a timeout, or shown by the next ping
            } finally {
                probing.set(false);
            }
        });
    }

    /** The last ping's answer, down as well while calls are timing out. */
    public Availability last() {
        Availability ping = lastPing.get();
        if (!ping.available()) {
            return ping;
        }
        return clients.calls()
                .problem()
                .map(problem -> new Availability(false, problem, true, ping.checkedAt()))
                .orElse(ping);
    }

    public boolean available() {
        return last().available();
    }
}
