package dev.sluice.artifact;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The account of {@code sluice.artifacts.max-disk} (ADR 0055): the bytes of
 * every dispatch's kept artifacts, and of files being written, never more than
 * the quota together. Room for a file is reserved before it is written; when
 * there is none, the dispatches whose artifacts were kept first are chosen to
 * go, oldest first, never the dispatch being collected and never files still
 * being written. It holds no files itself: the store deletes what it is told
 * to, and builds the account again from its directory at start.
 */
final class ArtifactDisk {

    /** A dispatch's kept artifacts: how many bytes, kept when. */
    record Kept(long bytes, Instant at) {}

    private final long max;
    private final Map<String, Kept> kept = new HashMap<>();
    private long reserved;

    ArtifactDisk(long max) {
        this.max = max;
    }

    long max() {
        return max;
    }

    /**
     * Reserves {@code bytes} for a file of dispatch {@code collecting}: the
     * dispatches whose artifacts must go to make room, possibly none, or
     * empty when not even that would make room. Those chosen are taken off
     * the account at once.
     */
    synchronized Optional<List<String>> reserve(long bytes, String collecting) {
        List<Map.Entry<String, Kept>> oldest = kept.entrySet().stream()
                .filter(e -> !e.getKey().equals(collecting))
                .sorted(Comparator.comparing(
                                (Map.Entry<String, Kept> e) -> e.getValue().at())
                        .thenComparing(Map.Entry::getKey))
                .toList();
        long free = max - used();
        List<String> evicted = new ArrayList<>();
        for (int i = 0; free < bytes && i < oldest.size(); i++) {
            evicted.add(oldest.get(i).getKey());
            free += oldest.get(i).getValue().bytes();
        }
        if (free < bytes) {
            return Optional.empty();
        }
        evicted.forEach(kept::remove);
        reserved += bytes;
        return Optional.of(evicted);
    }

    /** Gives back room reserved for files that were not kept. */
    synchronized void release(long bytes) {
        reserved -= bytes;
    }

    /** The reserved {@code bytes} are now dispatch {@code id}'s kept artifacts, in place of any before. */
    synchronized void commit(String id, long bytes, Instant at) {
        reserved -= bytes;
        kept.put(id, new Kept(bytes, at));
    }

    synchronized void forget(String id) {
        kept.remove(id);
    }

    /** The account as the directory shows it, the files being written kept as they are. */
    synchronized void rebuild(Map<String, Kept> found) {
        kept.clear();
        kept.putAll(found);
    }

    synchronized long used() {
        return reserved + kept.values().stream().mapToLong(Kept::bytes).sum();
    }
}
