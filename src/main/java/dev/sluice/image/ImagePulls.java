package dev.sluice.image;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;

import dev.sluice.trace.Phase;
import dev.sluice.trace.SpanNames;
import dev.sluice.trace.Tracing;
import io.opentelemetry.context.Context;

/**
 * Pulls shared by every dispatch of the same image (ADR 0059): one pull per
 * normalized reference at a time (the reference names the registry, so the
 * credentials too), at most {@code sluice.images.max-concurrent-pulls} at
 * once on threads of their own, each within {@code sluice.images.pull-timeout}
 * ({@link ImagePuller}). The tenants take turns, and one holds at most
 * {@code max-concurrent-pulls-per-tenant} of them ({@link PullTurns}, ADR
 * 0073): a tenant whose pulls stall waits behind its own, never another's.
 * A dispatch that asks once a pull has ended starts another: under
 * {@code always} each dispatch asks its registry.
 */
final class ImagePulls {

    /** A pull asked for and not yet ended: what it pulls, in whose trace, and who waits for it. */
    private record Pull(ImageName name, Context trace, CompletableFuture<Void> done) {}

    private final ImagePuller puller;
    private final RegistryCredentials credentials;
    private final ExecutorService threads;
    private final ImageUses uses;
    private final Tracing tracing;
    private final PullTurns turns;
    private final Map<String, Pull> inFlight = new HashMap<>();

    /** @param uses records each pull that ended well, for the collection of unused images (ADR 0062) */
    ImagePulls(
            ImagePuller puller,
            RegistryCredentials credentials,
            ExecutorService threads,
            ImageUses uses,
            Tracing tracing,
            PullTurns turns) {
        this.turns = turns;
        this.puller = puller;
        this.credentials = credentials;
        this.threads = threads;
        this.uses = uses;
        this.tracing = tracing;
    }

    /**
     * The pull of {@code name} waiting or under way, or a new one asked for by
     * {@code tenant}: ends when the engine holds it, or with why not.
     */
    CompletableFuture<Void> pull(ImageName name, String tenant) {
        String key = name.normalized();
        Pull pull;
        List<PullTurns.Start> start;
        synchronized (this) {
            // In the trace of the dispatch that asked first: one pull, one span, whoever else waits for it.
            pull = inFlight.computeIfAbsent(key, k -> new Pull(name, Context.current(), new CompletableFuture<>()));
            start = turns.ask(key, tenant);
        }
        start.forEach(this::start);
        return pull.done();
    }

    private void start(PullTurns.Start start) {
        Pull pull;
        synchronized (this) {
            pull = inFlight.get(start.key());
        }
        threads.execute(pull.trace().wrap(() -> run(start.key(), pull)));
    }

    private void run(String key, Pull pull) {
        RuntimeException failure = null;
        try {
            traced(pull.name());
        } catch (RuntimeException e) {
            failure = e;
        }
        List<PullTurns.Start> next;
        synchronized (this) {
            // Out of the map before the waiters hear of it: one that asks from then on starts its own.
            inFlight.remove(key, pull);
            next = turns.ended(key);
        }
        if (failure == null) {
            pull.done().complete(null);
        } else {
            pull.done().completeExceptionally(failure);
        }
        next.forEach(this::start);
    }

    private void traced(ImageName name) {
        try (Phase span = tracing.withinTrace(SpanNames.IMAGE_PULL).attribute(SpanNames.IMAGE, name.normalized())) {
            try {
                uses.pull(name, () -> puller.pull(name, credentials.forRegistry(name.domain())));
            } catch (RuntimeException e) {
                span.failed("image_pull_failed");
                throw e;
            }
        }
    }
}
