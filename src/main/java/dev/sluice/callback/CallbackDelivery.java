package dev.sluice.callback;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;

import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.sluice.concurrent.LogScope;
import dev.sluice.record.DispatchSpec;
import dev.sluice.record.DispatchStore;
import dev.sluice.store.StoredBody;
import dev.sluice.trace.Phase;
import dev.sluice.trace.SpanNames;
import dev.sluice.trace.Tracing;
import dev.sluice.worker.CrashPoint;
import dev.sluice.worker.Worker;
import io.opentelemetry.api.trace.SpanKind;
import io.smallrye.common.annotation.Identifier;

/**
 * Sends what the outbox has due: claims deliveries, signs each attempt, POSTs
 * it, and records the outcome with the time of the next attempt. Only 2xx
 * delivers; 410 gives up at once; anything else is tried again on the
 * schedule (never before a Retry-After) until the round is exhausted and the
 * delivery is dead-lettered. Senders are shared per tenant, and a tenant gets
 * at most {@code maxPerHost} attempts at once at one receiving address
 * ({@link DeliverySlots}, ADR 0073), so one tenant's slow receiver holds
 * neither every sender nor another tenant's.
 */
@Singleton
public final class CallbackDelivery {

    private static final Logger LOG = Logger.getLogger(CallbackDelivery.class);

    private final CallbackStore outbox;
    private final DispatchStore dispatches;
    private final CallbackClient client;
    private final TenantSigners signers;
    private final RetrySchedule schedule;
    private final Clock clock;
    private final String worker;
    private final Duration lease;
    private final ExecutorService senders;
    private final DeliverySlots slots;
    private final Consumer<DeliveryAttempted> attempted;
    private final Tracing tracing;

    @Inject
    CallbackDelivery(
            CallbackStore outbox,
            DispatchStore dispatches,
            CallbackClient client,
            TenantSigners signers,
            RetrySchedule schedule,
            Clock clock,
            Worker worker,
            @Identifier("callback-senders") ExecutorService senders,
            DeliverySlots slots,
            Event<DeliveryAttempted> attempted,
            Tracing tracing) {
        this.outbox = outbox;
        this.dispatches = dispatches;
        this.client = client;
        this.signers = signers;
        this.schedule = schedule;
        this.clock = clock;
        this.worker = worker.id();
        // A claim outlives any attempt, so it is only ever taken over from a worker that died.
        this.lease = client.attemptTimeout().multipliedBy(2).plusSeconds(30);
        this.senders = senders;
        this.slots = slots;
        this.attempted = attempted::fire;
        this.tracing = tracing;
    }

    /**
     * Takes back what this worker's previous life had claimed and not sent to
     * the end (it was killed mid-attempt): due again now, at least once, the
     * same message. A worker id names one live process (ADR 0010).
     */
    public void resumeOwnClaims() {
        int released = outbox.releaseAll(worker);
        if (released > 0) {
            LOG.infof("%d callback deliveries claimed before this worker restarted are due again", released);
        }
    }

    /**
     * Claims due deliveries up to the free slots, each tenant's within its
     * room, and starts them; returns how many it started.
     */
    public int sendDue() {
        int free = slots.free();
        if (free <= 0) {
            return 0;
        }
        Instant now = clock.instant();
        List<CallbackStore.Due> due = outbox.claim(now, free, slots::room, worker, now.plus(lease));
        int started = 0;
        for (CallbackStore.Due d : due) {
            if (!slots.take(d.tenant())) { // another round took the room meanwhile: leave it for the next
                outbox.release(d, worker);
                continue;
            }
            started++;
            senders.execute(LogScope.wrap(d.subject(), () -> {
                try {
                    send(d);
                } catch (RuntimeException e) {
                    // The claim lapses and the delivery is tried again; nothing is lost.
                    LOG.errorf("callback %s: attempt could not be recorded: %s", d.webhookId(), e.getMessage());
                } finally {
                    slots.give(d.tenant());
                }
            }));
        }
        return started;
    }

    /**
     * Resolves where the delivery goes, on its sender's thread (a name may
     * be slow to resolve), and attempts it unless its tenant already holds
     * every slot at that address: then it goes back to the outbox.
     */
    private void send(CallbackStore.Due due) {
        CallbackClient.Target target = client.target(URI.create(due.url()));
        if (!(target instanceof CallbackClient.Target.Address to)) {
            attempt(due, target); // recorded as the failure it is
            return;
        }
        if (!slots.takeAddress(due.tenant(), to.address())) {
            outbox.release(due, worker);
            return;
        }
        try {
            attempt(due, target);
        } finally {
            slots.giveAddress(due.tenant(), to.address());
        }
    }

    private void attempt(CallbackStore.Due due, CallbackClient.Target target) {
        // A group's messages have no dispatch to ask for an encoding: they travel as they are.
        Optional<DispatchStore.CallbackBody> stored = due.dispatchId() != null
                ? dispatches.callbackBody(due.dispatchId())
                : outbox.messageBody(due.id())
                        .map(body ->
                                new DispatchStore.CallbackBody(body, DispatchSpec.CallbackEncoding.IDENTITY, null));
        if (stored.isEmpty()) {
            return; // the record is gone (reaped): nothing to deliver
        }
        // Each attempt is a client span of the dispatch's trace, and carries it on: the receiver continues it.
        try (Phase trace = tracing.continued(stored.get().traceparent());
                Phase span = tracing.withinTrace(SpanNames.CALLBACK, SpanKind.CLIENT)) {
            span.attribute(SpanNames.WEBHOOK_ID, due.webhookId())
                    .attribute(SpanNames.CALLBACK_ATTEMPT, due.roundAttempts() + 1);
            attempt(due, target, stored.get(), span);
        }
    }

    private void attempt(
            CallbackStore.Due due, CallbackClient.Target target, DispatchStore.CallbackBody stored, Phase span) {
        long timestamp = clock.instant().getEpochSecond();
        // The tenant's secrets as configured now: a retry after a rotation signs with the new ones (ADR 0074).
        WebhookSigner signer = signers.of(due.tenant());
        CallbackClient.Attempt attempt = signer.canSign()
                ? post(due, target, stored, signer, timestamp, span)
                : CallbackClient.Attempt.unsigned();
        CrashPoint.DURING_DELIVERY.reached();
        CallbackStore.Outcome outcome = outcome(due, attempt);
        outbox.record(due, worker, outcome);
        attempted.accept(attempted(attempt, outcome));
        if (attempt.status() != null) {
            span.attribute(SpanNames.HTTP_STATUS, attempt.status());
        }
        span.attribute(SpanNames.DELIVERY, outcome.state().wire());
        if (!attempt.delivered()) {
            span.failed(failure(attempt));
        }
        LOG.infof(
                "callback %s attempt %d to %s: %s in %d ms%s",
                due.webhookId(),
                due.roundAttempts() + 1,
                redacted(due.url()),
                attempt.status() != null ? "HTTP " + attempt.status() : attempt.failure().reason,
                attempt.durationMs(),
                outcome.state() == DeliveryState.PENDING
                        ? ", next at " + outcome.nextAttemptAt()
                        : ", " + outcome.state().wire());
    }

    /** Signs the stored body and POSTs it. */
    private CallbackClient.Attempt post(
            CallbackStore.Due due,
            CallbackClient.Target target,
            DispatchStore.CallbackBody stored,
            WebhookSigner signer,
            long timestamp,
            Phase span) {
        StoredBody body = stored.body();
        String signature;
        try (InputStream in = body.open()) {
            signature = signer.sign(due.webhookId(), timestamp, in);
        } catch (IOException e) {
            throw new UncheckedIOException("the stored body of " + due.webhookId() + " could not be read", e);
        }
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("webhook-id", due.webhookId());
        headers.put("webhook-timestamp", Long.toString(timestamp));
        headers.put("webhook-signature", signature);
        // Not signed: the signature covers the id, the timestamp and the body alone (docs/api.md, section 8.2).
        String traceparent = span.traceparent();
        if (traceparent != null) {
            headers.put(Tracing.TRACEPARENT, traceparent);
        }
        // Streamed from where the store keeps it: a body is never held whole for sending.
        // The signature is over the body itself; gzip is only how it travels (Content-Encoding).
        return client.post(target, headers, new CallbackClient.Body(body.size(), body::open, stored.gzip()));
    }

    private CallbackStore.Outcome outcome(CallbackStore.Due due, CallbackClient.Attempt attempt) {
        Instant now = clock.instant();
        String error = attempt.status() != null ? null : attempt.detail();
        if (attempt.delivered()) {
            return new CallbackStore.Outcome(
                    DeliveryState.DELIVERED, null, attempt.status(), null, now, attempt.durationMs());
        }
        if (attempt.status() != null && attempt.status() == 410) {
            return new CallbackStore.Outcome(
                    DeliveryState.DEAD, null, 410, "receiver answered 410 Gone", now, attempt.durationMs());
        }
        Optional<Instant> next = schedule.next(due.roundAttempts() + 1, now, attempt.retryAfter());
        return next.map(at -> new CallbackStore.Outcome(
                        DeliveryState.PENDING, at, attempt.status(), error, now, attempt.durationMs()))
                .orElseGet(() -> new CallbackStore.Outcome(
                        DeliveryState.DEAD,
                        null,
                        attempt.status(),
                        error != null ? error : "no 2xx answer within the retry schedule",
                        now,
                        attempt.durationMs()));
    }

    private static DeliveryAttempted attempted(CallbackClient.Attempt attempt, CallbackStore.Outcome outcome) {
        DeliveryAttempted.Outcome made = switch (outcome.state()) {
            case DELIVERED -> DeliveryAttempted.Outcome.DELIVERED;
            case PENDING -> DeliveryAttempted.Outcome.RETRY;
            case DEAD ->
                Integer.valueOf(410).equals(attempt.status())
                        ? DeliveryAttempted.Outcome.GONE
                        : DeliveryAttempted.Outcome.EXHAUSTED;
        };
        return new DeliveryAttempted(made, failure(attempt), Duration.ofMillis(attempt.durationMs()));
    }

    /** Why an attempt got no 2xx, in a word; {@code null} when it was delivered. */
    private static String failure(CallbackClient.Attempt attempt) {
        if (attempt.delivered()) {
            return null;
        }
        if (attempt.status() == null) {
            return attempt.failure().reason;
        }
        return attempt.status() >= 300 && attempt.status() < 400 ? "redirect" : "http_" + attempt.status() / 100 + "xx";
    }

    /** Scheme, host, port and path: a query string may carry a receiver's token. */
    private static String redacted(String url) {
        URI uri = URI.create(url);
        return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "")
                + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }
}
