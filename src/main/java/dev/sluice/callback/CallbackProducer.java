package dev.sluice.callback;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.sluice.concurrent.Threads;
import dev.sluice.outbound.AddressPolicy;
import dev.sluice.outbound.CallbackUrlPolicy;
import dev.sluice.outbound.GuardedDnsResolver;
import dev.sluice.record.DispatchKey;
import dev.sluice.record.ResultBudget;
import dev.sluice.store.Jdbc;
import dev.sluice.store.JsonColumns;
import io.quarkus.runtime.Startup;
import io.smallrye.common.annotation.Identifier;

class CallbackProducer {

    private static final Logger LOG = Logger.getLogger(CallbackProducer.class);

    /**
     * Checked at start-up: a worker with a malformed or published secret, or
     * a tenant's entry that names no tenant, refuses to start (ADR 0074).
     */
    @Produces
    @Singleton
    @Startup(Integer.MIN_VALUE + 1) // after the exposure check, before the lease touches the store
    TenantSigners signers(CallbackConfig config, TenantCallbackConfig tenants) {
        TenantSigners signers = TenantSigners.of(
                config.signingSecrets().orElse(List.of()),
                TenantEntries.of(tenants, TenantCallbackConfig.Callbacks::signingSecrets));
        if (!signers.serves(DispatchKey.DEFAULT_TENANT)) {
            LOG.warnf(
                    "no %s: callback URLs are refused%s",
                    CallbackConfig.SIGNING_SECRETS,
                    signers.tenantsWithOwnSecrets().isEmpty()
                            ? ""
                            : " but for tenants with secrets of their own: "
                                    + String.join(", ", new TreeSet<>(signers.tenantsWithOwnSecrets())));
        }
        return signers;
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

    /** Checked at start-up: a tenant's host the worker's rules refuse stops the worker (ADR 0074). */
    @Produces
    @Singleton
    @Startup(Integer.MIN_VALUE + 1) // before the store, as the signers
    CallbackUrlPolicy urlPolicy(AddressPolicy addresses, TenantCallbackConfig tenants) {
        return new CallbackUrlPolicy(
                addresses, TenantEntries.of(tenants, TenantCallbackConfig.Callbacks::callbackAllowedHosts));
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
                new GuardedDnsResolver(addresses, GuardedDnsResolver.Lookup.system()),
                config.connectTimeout(),
                config.attemptTimeout(),
                config.maxConcurrent(),
                // The slots bound what one tenant sends to one address (DeliverySlots); the pool lets every slot
                // have its connection, so no attempt ever waits in it for one.
                config.maxConcurrent(),
                deadlines);
    }

    /** How many attempts run at once: in all, per tenant, and per tenant at one receiving address. */
    @Produces
    @Singleton
    DeliverySlots slots(CallbackConfig config) {
        return new DeliverySlots(config.maxConcurrent(), config.maxConcurrentPerTenant(), config.maxPerHost());
    }

    @Produces
    @Singleton
    CallbackService service(
            CallbackStore outbox, CallbackUrlPolicy urls, TenantSigners signers, Clock clock, CallbackJobs jobs) {
        return new CallbackService(outbox, urls, signers, clock, jobs::wake);
    }
}
