package dev.sluice.callback;

import java.net.InetAddress;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.sluice.concurrent.Threads;
import dev.sluice.outbound.AddressPolicy;
import dev.sluice.outbound.GuardedDnsResolver;
import dev.sluice.record.DispatchStore;
import dev.sluice.record.ResultBudget;
import dev.sluice.store.Jdbc;
import dev.sluice.store.JsonColumns;
import dev.sluice.trace.Tracing;
import dev.sluice.worker.Worker;
import io.quarkus.runtime.Startup;
import io.smallrye.common.annotation.Identifier;

class CallbackProducer {

    private static final Logger LOG = Logger.getLogger(CallbackProducer.class);

    /** Checked at start-up: a worker with a malformed secret or schedule refuses to start. */
    @Produces
    @Singleton
    @Startup
    WebhookSigner signer(CallbackConfig config) {
        WebhookSigner signer = new WebhookSigner(config.signingSecrets().orElse(List.of()));
        if (!signer.canSign()) {
            LOG.warn("no sluice.callback.signing-secrets: dispatches with a callback URL will be refused");
        }
        return signer;
    }

    @Produces
    @Singleton
    RetrySchedule schedule(CallbackConfig config) {
        SecureRandom random = new SecureRandom();
        return new RetrySchedule(config.retrySchedule(), config.jitter(), config.maxRetryAfter(), random::nextDouble);
    }

    /** The stored result is the callback body, so the body's budget is applied as the result is built. */
    @Produces
    @Singleton
    ResultBudget resultBudget(CallbackConfig config, JsonColumns json) {
        return new ResultBudget(config.maxBody().asLongValue(), json);
    }

    @Produces
    @Singleton
    AddressPolicy addressPolicy(CallbackConfig config) {
        return new AddressPolicy(config.allowedHosts().orElse(List.of()));
    }

    @Produces
    @Singleton
    CallbackUrlPolicy urlPolicy(AddressPolicy addresses) {
        return new CallbackUrlPolicy(addresses);
    }

    /** The outbox is written in the same transaction as each result, through this hook. */
    @Produces
    @Singleton
    CallbackStore outbox(Jdbc jdbc, RetrySchedule schedule, Clock clock) {
        return new CallbackStore(jdbc, () -> schedule.first(clock.instant()));
    }

    @Produces
    @Singleton
    @Identifier("callback-senders")
    ExecutorService senders(CallbackConfig config) {
        return Executors.newFixedThreadPool(config.maxConcurrent(), Threads.named("callback-sender-"));
    }

    void close(@Disposes @Identifier("callback-senders") ExecutorService senders) {
        senders.shutdownNow();
    }

    @Produces
    @Singleton
    CallbackClient client(AddressPolicy addresses, CallbackConfig config) {
        ScheduledExecutorService deadlines =
                Executors.newSingleThreadScheduledExecutor(Threads.named("callback-deadline-"));
        return new CallbackClient(
                new GuardedDnsResolver(addresses, InetAddress::getAllByName),
                config.connectTimeout(),
                config.attemptTimeout(),
                config.maxConcurrent(),
                // The slots bound what one tenant sends to one address (DeliverySlots); the pool lets every slot
                // have its connection, so no attempt ever waits in it for one.
                config.maxConcurrent(),
                deadlines);
    }

    @Produces
    @Singleton
    CallbackDelivery delivery(
            CallbackStore outbox,
            DispatchStore dispatches,
            CallbackClient client,
            WebhookSigner signer,
            RetrySchedule schedule,
            Clock clock,
            Worker worker,
            CallbackConfig config,
            @Identifier("callback-senders") ExecutorService senders,
            Event<DeliveryAttempted> attempts,
            Tracing tracing) {
        return new CallbackDelivery(
                outbox,
                dispatches,
                client,
                signer,
                schedule,
                clock,
                worker.id(),
                config.attemptTimeout(),
                senders,
                new DeliverySlots(config.maxConcurrent(), config.maxConcurrentPerTenant(), config.maxPerHost()),
                attempts::fire,
                tracing);
    }

    @Produces
    @Singleton
    CallbackService service(
            CallbackStore outbox, CallbackUrlPolicy urls, WebhookSigner signer, Clock clock, CallbackJobs jobs) {
        return new CallbackService(outbox, urls, signer, clock, jobs::wake);
    }
}
