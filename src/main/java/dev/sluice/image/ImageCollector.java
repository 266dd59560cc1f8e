package dev.sluice.image;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

import dev.sluice.container.sandbox.ImagePatterns;

/**
 * Removes references the worker pulled and no dispatch used for
 * {@code sluice.images.unused-retention} (ADR 0062): at most
 * {@code collect-batch} a round, the longest unused first, never one that
 * matches {@code pinned}, never one without a row in {@link PulledImages}
 * (an image the operator loaded), and never with force. The engine's refusal
 * because a container uses the image keeps the row as it was; an image gone
 * from the engine, or whose reference now names another image than the one
 * pulled, loses its row and is left alone.
 */
final class ImageCollector {

    private static final Logger LOG = Logger.getLogger(ImageCollector.class);

    private final PulledImages store;
    private final EngineImages engine;
    private final ImagePatterns pinned;
    private final Duration retention;
    private final int batch;
    private final Clock clock;
    private final Consumer<ImageRemoved> removed;

    /** @param retention zero turns the collector off */
    ImageCollector(
            PulledImages store,
            EngineImages engine,
            ImagePatterns pinned,
            Duration retention,
            int batch,
            Clock clock,
            Consumer<ImageRemoved> removed) {
        this.store = store;
        this.engine = engine;
        this.pinned = pinned;
        this.retention = retention;
        this.batch = Math.max(1, batch);
        this.clock = clock;
        this.removed = removed;
    }

    /** One round; returns the references it removed. An engine that fails ends the round, its claim undone. */
    List<String> collect() {
        if (retention.isZero() || retention.isNegative()) {
            return List.of();
        }
        String engineId = engine.identity();
        Instant before = clock.instant().minus(retention);
        List<String> gone = new ArrayList<>();
        for (PulledImages.Pulled pulled : candidates(engineId, before)) {
            if (collect(engineId, pulled, before)) {
                gone.add(pulled.reference());
            }
        }
        return gone;
    }

    /** Up to a batch of unused rows that no pinned pattern keeps; pinned rows are paged past, not counted. */
    private List<PulledImages.Pulled> candidates(String engineId, Instant before) {
        List<PulledImages.Pulled> chosen = new ArrayList<>();
        PulledImages.Pulled after = null;
        while (chosen.size() < batch) {
            List<PulledImages.Pulled> page = store.unused(engineId, before, after, batch);
            for (PulledImages.Pulled pulled : page) {
                if (chosen.size() < batch && !pinned.matches(pulled.reference())) {
                    chosen.add(pulled);
                }
            }
            if (page.size() < batch) {
                break;
            }
            after = page.get(page.size() - 1);
        }
        return chosen;
    }

    private boolean collect(String engineId, PulledImages.Pulled pulled, Instant before) {
        String reference = pulled.reference();
        Optional<String> names = engine.imageId(reference);
        if (names.isEmpty() || !names.get().equals(pulled.imageId())) {
            // Gone (removed by hand, or by another collector), or tagged anew by someone else: not ours to remove.
            store.claim(engineId, pulled, before);
            LOG.debugf("image %s %s: forgotten", reference, names.isEmpty() ? "is gone" : "names another image now");
            return false;
        }
        if (!store.claim(engineId, pulled, before)) {
            return false; // used since it was read, or taken by another worker beside the same engine
        }
        EngineImages.Removal removal;
        try {
            removal = engine.remove(reference);
        } catch (RuntimeException e) {
            store.restore(engineId, pulled);
            throw e;
        }
        switch (removal) {
            case REMOVED -> {
                LOG.infof("removed image %s, pulled by the worker and unused since %s", reference, pulled.lastUsed());
                removed.accept(new ImageRemoved());
                return true;
            }
            case IN_USE -> {
                store.restore(engineId, pulled);
                LOG.debugf("image %s is used by a container: kept", reference);
                return false;
            }
            default -> {
                return false; // gone meanwhile: its row is already out
            }
        }
    }
}
