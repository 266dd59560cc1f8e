package dev.sluice.actions;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.io.LogRange;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchConfig;
import dev.sluice.record.DispatchKey;
import dev.sluice.record.DispatchQueries;
import dev.sluice.record.RequestRefused;
import dev.sluice.worker.PeerReads;
import dev.sluice.worker.Peers;
import dev.sluice.worker.Worker;
import dev.sluice.worker.WorkerConfig;

/**
 * Reads of a dispatch another replica runs, relayed to it (ADR 0065): its
 * container, the log in its engine, its artifacts on its disk and its live
 * events are that replica's alone. The caller's tenant is checked here
 * (another tenant's dispatch is not found, as an unknown one); the relay
 * then asks the owner for the dispatch by its own id, signed by the replicas
 * for the dispatch's tenant, and never carries the caller's credentials
 * (ADR 0072). The reads relayed at once are bounded per tenant
 * ({@link RelayedReads}, ADR 0073). Each read answers empty when it is to be answered here: this
 * worker runs the dispatch, the store is the embedded one, or the request is
 * itself a relay.
 */
@Singleton
public class OwnerReads {

    private static final Logger LOG = Logger.getLogger(OwnerReads.class);

    /** A problem an owner answers is small; anything longer is not one of ours. */
    private static final int MAX_PROBLEM = 64 * 1024;

    private final DispatchQueries queries;
    private final Peers peers;
    private final PeerReads reads;
    private final String self;
    private final Duration streamIdle;
    private final Duration retryAfter;
    private final ObjectMapper json;
    private final RelayedReads relayed;

    @Inject
    OwnerReads(
            DispatchQueries queries,
            Peers peers,
            PeerReads reads,
            Worker worker,
            WorkerConfig config,
            DispatchConfig dispatch,
            ObjectMapper json,
            ApiConfig api) {
        this.queries = queries;
        this.peers = peers;
        this.reads = reads;
        this.self = worker.id();
        this.streamIdle = config.lease();
        this.retryAfter = dispatch.retryAfter();
        this.json = json;
        this.relayed = new RelayedReads(api.maxRelayedReads(), api.maxRelayedReadsPerTenant());
    }

    /** The worker to relay a read of {@code d} to; empty when it is answered here. */
    private Optional<Peers.Peer> owner(Dispatch d, Relay relay) {
        if (relay.forwarded() || d.workerId() == null || d.workerId().equals(self)) {
            return Optional.empty();
        }
        return peers.find(d.workerId()).filter(p -> !(p instanceof Peers.Peer.Silent));
    }

    /** A log range of a dispatch another live replica ran, from that replica; gone with a replica that is not. */
    Optional<LogRange> log(String tenant, String key, String name, String stream, long offset, int limit, Relay relay) {
        Dispatch d = queries.get(key);
        Optional<Peers.Peer> owner = d.containerId() == null ? Optional.empty() : owner(d, relay);
        if (owner.isEmpty()) {
            return Optional.empty();
        }
        if (!(owner.get() instanceof Peers.Peer.Live)) {
            throw new RequestRefused(
                    RequestRefused.Reason.LOG_GONE,
                    "dispatch " + name + " ran on worker " + d.workerId()
                            + ", which is no longer running; its container and log were on that worker's engine");
        }
        String path = dispatchPath(d) + "/logs/" + stream + "?offset=" + offset + "&limit=" + limit;
        PeerReads.Answer.Served served =
                served(d, relayed.read(tenant, () -> reads.get(d.workerId(), tenant(d), path, relay.headers())));
        if (served == null) {
            throw new RequestRefused(
                    RequestRefused.Reason.LOG_GONE, "worker " + d.workerId() + ", which ran it, has just stopped");
        }
        if (served.status() != 200) {
            throw relayed(d, served);
        }
        Map<String, String> h = served.headers();
        long length = number(h.get("content-length"));
        if (length < 0 || length > limit || number(h.get("sluice-log-offset")) != offset) {
            close(served);
            throw unreachable(d, "answered with a range it was not asked for");
        }
        return Optional.of(new LogRange(offset, length, "true".equals(h.get("sluice-log-end")), out -> {
                    try (served;
                            InputStream in = served.body()) {
                        if (in.transferTo(out) != length) {
                            throw new IOException("the owner's answer ended early");
                        }
                    }
                })
                .whenClosed(() -> close(served)));
    }

    /**
     * An artifact of a finished dispatch another live replica ran, as that
     * replica answers it (the status, the headers an artifact's answer has,
     * the body to be streamed and closed).
     */
    public Optional<OwnerAnswer> artifact(Caller caller, String id, String encodedName, Relay relay) {
        Dispatch d = queries.get(caller.dispatchKey(id));
        Optional<Peers.Peer> owner = d.status().terminal() ? owner(d, relay) : Optional.empty();
        if (owner.isEmpty() || !(owner.get() instanceof Peers.Peer.Live)) {
            return Optional.empty(); // DispatchArtifacts says what is here, or that it went with its worker
        }
        String path = dispatchPath(d) + "/artifacts/" + encodedName;
        return Optional.ofNullable(served(
                        d,
                        relayed.read(caller.tenant(), () -> reads.get(d.workerId(), tenant(d), path, relay.headers()))))
                .map(OwnerAnswer::new);
    }

    /**
     * The live event stream of an unfinished dispatch another live replica
     * runs, from that replica; each read of it may wait the lease (a quiet
     * dispatch), after which the door asks again.
     */
    public Optional<OwnerAnswer> events(Caller caller, String id, Relay relay) {
        Dispatch d = queries.get(caller.dispatchKey(id));
        Optional<Peers.Peer> owner = d.status().terminal() ? Optional.empty() : owner(d, relay);
        if (owner.isEmpty() || !(owner.get() instanceof Peers.Peer.Live)) {
            return Optional.empty(); // the hub answers: the end when it comes, from whoever closes it
        }
        Map<String, String> headers = relay.headers();
        headers.put("Accept", "text/event-stream");
        PeerReads.Answer.Served served = served(
                d,
                relayed.read(
                        caller.tenant(),
                        () -> reads.get(d.workerId(), tenant(d), dispatchPath(d) + "/events", headers, streamIdle)));
        if (served != null && served.status() != 200) {
            throw relayed(d, served);
        }
        return Optional.ofNullable(served).map(OwnerAnswer::new);
    }

    /** How long one read of a relayed event stream may wait for the owner: the lease. */
    public Duration streamIdle() {
        return streamIdle;
    }

    /** The owner's answer; null when it was not asked after all (its lease lapsed meanwhile). */
    private PeerReads.Answer.Served served(Dispatch d, PeerReads.Answer answer) {
        if (answer instanceof PeerReads.Answer.Unreachable u) {
            LOG.debugf("worker %s did not answer a relayed read: %s", d.workerId(), u.why());
            throw unreachable(d, "did not answer in time");
        }
        if (answer instanceof PeerReads.Answer.Unsigned u) {
            LOG.warnf("a read of %s was not relayed to worker %s: %s", d.id(), d.workerId(), u.why());
            throw unreachable(
                    d,
                    "cannot be asked for it: relayed reads need the same sluice.worker.relay-secrets on"
                            + " every replica");
        }
        if (answer instanceof PeerReads.Answer.Refused r) {
            LOG.debugf("a relayed read of %s was not sent: %s", d.id(), r.why());
            return null;
        }
        return (PeerReads.Answer.Served) answer;
    }

    /** The owner's refusal, passed on as it made it: the same problem a client asking it directly would get. */
    private ProblemException relayed(Dispatch d, PeerReads.Answer.Served served) {
        try (served;
                InputStream in = served.body()) {
            byte[] body = in.readNBytes(MAX_PROBLEM);
            Problem problem = json.readValue(body, Problem.class);
            String retry = served.headers().get("retry-after");
            return new ProblemException(problem, retry == null ? Map.of() : Map.of("Retry-After", retry));
        } catch (IOException | RuntimeException e) {
            return unreachable(d, "gave an answer that is not a worker's");
        }
    }

    private ProblemException unreachable(Dispatch d, String what) {
        return new ProblemException(
                503,
                "owner-unreachable",
                "The worker running the dispatch does not answer",
                "worker " + d.workerId() + ", which runs dispatch " + DispatchKey.idOf(d.id()) + ", " + what,
                null,
                Map.of("Retry-After", Long.toString(Math.max(1, retryAfter.toSeconds()))));
    }

    /** The dispatch as its tenant names it: the owner acts for that tenant alone, whoever asked here. */
    private static String dispatchPath(Dispatch d) {
        return "/v1/dispatches/" + URLEncoder.encode(DispatchKey.idOf(d.id()), StandardCharsets.UTF_8);
    }

    private static String tenant(Dispatch d) {
        return DispatchKey.tenantOf(d.id());
    }

    private static long number(String header) {
        try {
            return header == null ? -1 : Long.parseLong(header.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static void close(PeerReads.Answer.Served served) {
        try {
            served.close();
        } catch (IOException e) {
            LOG.debugf("closing a relayed read: %s", e.getMessage());
        }
    }
}
