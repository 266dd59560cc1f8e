package dev.sluice.image;

import java.time.Clock;

import org.jboss.logging.Logger;

/**
 * Keeps {@link PulledImages} up to date from the dispatches' side (ADR 0062):
 * a pull the worker made, and each use of a reference at a container's
 * create. Neither fails a dispatch: an image whose pull or use went
 * unrecorded is kept longer, or never collected, which is the safe side.
 */
final class ImageUses {

    private static final Logger LOG = Logger.getLogger(ImageUses.class);

    private final PulledImages store;
    private final EngineImages engine;
    private final Clock clock;

    ImageUses(PulledImages store, EngineImages engine, Clock clock) {
        this.store = store;
        this.engine = engine;
        this.clock = clock;
    }

    /**
     * Runs {@code pull} of {@code name} and records it: as the worker's own when
     * the engine held no image by that reference before, and otherwise only
     * if the worker had pulled it before (an image the operator loaded stays
     * theirs, even when {@code always} pulls it again).
     */
    void pull(ImageName name, Runnable pull) {
        String reference = name.normalized();
        boolean absentBefore = absent(reference);
        pull.run();
        try {
            String engineId = engine.identity();
            engine.imageId(reference)
                    .ifPresent(id -> store.pulled(engineId, reference, id, clock.instant(), absentBefore));
        } catch (RuntimeException e) {
            LOG.warnf("the pull of %s was not recorded, so it is not collected: %s", reference, e.getMessage());
        }
    }

    /** A container is about to be made of {@code name}: one statement, a no-op for an image the worker did not pull. */
    void used(ImageName name) {
        try {
            store.used(engine.identity(), name.normalized(), clock.instant());
        } catch (RuntimeException e) {
            LOG.warnf("the use of %s was not recorded: %s", name.normalized(), e.getMessage());
        }
    }

    /** Whether the engine holds no image by {@code reference}; one it could not tell counts as held. */
    private boolean absent(String reference) {
        try {
            return engine.imageId(reference).isEmpty();
        } catch (RuntimeException e) {
            return false;
        }
    }
}
