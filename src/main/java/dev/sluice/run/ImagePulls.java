package dev.sluice.run;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;

import dev.sluice.container.ImageName;
import dev.sluice.container.ImagePuller;
import dev.sluice.container.RegistryCredentials;
import dev.sluice.trace.Phase;
import dev.sluice.trace.SpanNames;
import dev.sluice.trace.Tracing;
import io.opentelemetry.context.Context;

/**
 * Pulls shared by every dispatch of the same image (ADR 0059): one pull per
 * normalized reference at a time (the reference names the registry, so the
 * credentials too), at most {@code sluice.images.max-concurrent-pulls} at
 * once on threads of their own, each within {@code sluice.images.pull-timeout}
 * ({@link ImagePuller}). A dispatch that asks once a pull has ended starts
 * another: under {@code always} each dispatch asks its registry.
 */
final class ImagePulls {

    private final ImagePuller puller;
    private final RegistryCredentials credentials;
    private final ExecutorService threads;
    private final ImageUses uses;
    private final Tracing tracing;
    private final Map<String, CompletableFuture<Void>> inFlight = new ConcurrentHashMap<>();

    /** @param uses records each pull that ended well, for the collection of unused images (ADR 0062) */
    ImagePulls(
            ImagePuller puller,
            RegistryCredentials credentials,
            ExecutorService threads,
            ImageUses uses,
            Tracing tracing) {
        this.puller = puller;
        this.credentials = credentials;
        this.threads = threads;
        this.uses = uses;
        this.tracing = tracing;
    }

    /** The pull of {@code name} under way, or a new one: ends when the engine holds it, or with why not. */
    CompletableFuture<Void> pull(ImageName name) {
        return inFlight.computeIfAbsent(name.normalized(), key -> {
            CompletableFuture<Void> pull = new CompletableFuture<>();
            // In the trace of the dispatch that asked first: one pull, one span, whoever else waits for it.
            threads.execute(Context.current().wrap(() -> run(key, name, pull)));
            return pull;
        });
    }

    private void run(String key, ImageName name, CompletableFuture<Void> pull) {
        RuntimeException failure = null;
        try {
            traced(name);
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            // Out of the map before the waiters hear of it: one that asks from then on starts its own.
            inFlight.remove(key, pull);
        }
        if (failure == null) {
            pull.complete(null);
        } else {
            pull.completeExceptionally(failure);
        }
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
