package dev.sluice.image;

import java.time.Instant;
import java.util.List;

import dev.sluice.store.Jdbc;

/**
 * The images the worker pulled, per engine (ADR 0062): only a reference with
 * a row here may ever be removed by the collector, so an image the operator
 * loaded, which has none, never is. Rows of one engine are shared by every
 * worker beside it that shares the store.
 */
final class PulledImages {

    /** One pulled reference: what it named after the pull, and when it was pulled and last used. */
    record Pulled(String reference, String imageId, Instant pulledAt, Instant lastUsed) {}

    private final Jdbc jdbc;

    PulledImages(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Records a pull of {@code reference} to {@code engine}, used now. A new
     * row only when {@code mayInsert}: a reference the engine already held
     * before the pull is kept out unless the worker had pulled it before.
     */
    void pulled(String engine, String reference, String imageId, Instant at, boolean mayInsert) {
        if (update(engine, reference, imageId, at) > 0 || !mayInsert) {
            return;
        }
        if (!insert(engine, new Pulled(reference, imageId, at, at))) {
            update(engine, reference, imageId, at); // another worker beside the same engine recorded it first
        }
    }

    private int update(String engine, String reference, String imageId, Instant at) {
        return jdbc.update(
                "UPDATE pulled_images SET image_id = ?, pulled_at = ?, last_used_at = ? "
                        + "WHERE engine_id = ? AND reference = ?",
                imageId,
                at,
                at,
                engine,
                reference);
    }

    /** A container is about to be made of {@code reference}: one statement, which changes nothing for an image the worker did not pull. */
    void used(String engine, String reference, Instant at) {
        jdbc.update(
                "UPDATE pulled_images SET last_used_at = ? WHERE engine_id = ? AND reference = ? AND last_used_at < ?",
                at,
                engine,
                reference,
                at);
    }

    /**
     * Up to {@code limit} references of {@code engine} last used before
     * {@code before}, the longest unused first, from just after {@code after}
     * (null for the first page).
     */
    List<Pulled> unused(String engine, Instant before, Pulled after, int limit) {
        String page = after == null ? "" : " AND (last_used_at > ? OR (last_used_at = ? AND reference > ?))";
        Object[] args = after == null
                ? new Object[] {engine, before, limit}
                : new Object[] {engine, before, after.lastUsed(), after.lastUsed(), after.reference(), limit};
        return jdbc.query(
                "SELECT reference, image_id, pulled_at, last_used_at FROM pulled_images "
                        + "WHERE engine_id = ? AND last_used_at < ?" + page
                        + " ORDER BY last_used_at, reference LIMIT ?",
                row -> new Pulled(
                        row.string("reference"),
                        row.string("image_id"),
                        row.instant("pulled_at"),
                        row.instant("last_used_at")),
                args);
    }

    /**
     * Takes the row out before its reference is removed, if it is still unused
     * since {@code before}: a worker that used it meanwhile keeps it, and of two
     * collectors beside one engine only one goes on.
     */
    boolean claim(String engine, Pulled pulled, Instant before) {
        return jdbc.update(
                        "DELETE FROM pulled_images WHERE engine_id = ? AND reference = ? AND last_used_at < ?",
                        engine,
                        pulled.reference(),
                        before)
                > 0;
    }

    /** Puts a claimed row back as it was: the engine kept its reference. */
    void restore(String engine, Pulled pulled) {
        insert(engine, pulled);
    }

    private boolean insert(String engine, Pulled pulled) {
        return jdbc.insertIfAbsent(
                "INSERT INTO pulled_images (engine_id, reference, image_id, pulled_at, last_used_at) "
                        + "VALUES (?, ?, ?, ?, ?)",
                engine,
                pulled.reference(),
                pulled.imageId(),
                pulled.pulledAt(),
                pulled.lastUsed());
    }
}
