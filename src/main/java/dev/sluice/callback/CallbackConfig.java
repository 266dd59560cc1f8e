package dev.sluice.callback;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Delivery of results to callback URLs (docs/api.md, section 8). */
@ConfigMapping(prefix = "sluice.callback")
public interface CallbackConfig {

    /** The name of {@link #signingSecrets()}, as messages at start name it. */
    String SIGNING_SECRETS = "sluice.callback.signing-secrets";

    /**
     * Standard Webhooks secrets ({@code whsec_<base64>} of at least 24 random
     * bytes), comma-separated. The first signs; every one gives a signature, so
     * receivers can rotate. They sign the callbacks of the tenant {@code default}
     * and of every tenant without {@code sluice.tenants.<name>.signing-secrets}
     * of its own; a tenant served by neither has its callback URLs refused. A
     * malformed secret, or one published as an example in Sluice's
     * documentation, stops the worker at start.
     */
    Optional<List<String>> signingSecrets();

    /**
     * Hosts, IP addresses or CIDRs that may be called back despite the SSRF
     * rules (internal receivers). A tenant's
     * {@code sluice.tenants.<name>.callback-allowed-hosts} narrows what its
     * dispatches may name within what this and the SSRF rules allow.
     */
    Optional<List<String>> allowedHosts();

    /**
     * Delay before each attempt, from the previous one; jitter is added. Its
     * length is the number of attempts: after the last, the delivery is
     * dead-lettered (ADR 0009).
     */
    @WithDefault("0s,5s,5m,30m,2h,5h,10h,14h,20h,24h")
    List<Duration> retrySchedule();

    /** Jitter on each delay, as a fraction of it (0.2 is ±20 %). */
    @WithDefault("0.2")
    double jitter();

    /** The most one attempt may take, from connecting to the end of the answer. */
    @WithDefault("15s")
    Duration attemptTimeout();

    /** The most opening the connection of one attempt may take. */
    @WithDefault("5s")
    Duration connectTimeout();

    /** Deliveries in flight at once. */
    @WithDefault("32")
    int maxConcurrent();

    /** Deliveries in flight at once to one receiving host, so a slow receiver cannot starve the others. */
    @WithDefault("4")
    int maxPerHost();

    /** How often the outbox is looked at for due deliveries (a finished dispatch is also sent at once). */
    @WithDefault("1s")
    Duration pollInterval();

    /**
     * The largest result, as JSON, that is stored and sent: a larger one loses
     * text beside its markers (stdout's head, then stdout's tail, then stderr's
     * head), recorded in its {@code reductions} (docs/api.md, section 7.9; ADR 0033).
     */
    @WithDefault("8M")
    MemorySize maxBody();

    /** The longest Retry-After honoured; a receiver cannot park a delivery for longer. */
    @WithDefault("24h")
    Duration maxRetryAfter();
}
