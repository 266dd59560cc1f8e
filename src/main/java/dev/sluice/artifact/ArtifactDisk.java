package dev.sluice.artifact;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.sluice.store.Keys;

/**
 * The account of {@code sluice.artifacts.max-disk} and of each tenant's
 * {@code max-disk-per-tenant} (ADR 0055, 0073): the bytes of every dispatch's
 * kept artifacts, and of files being written, never more than the quota
 * together nor than a tenant's share for one tenant. Room for a file is
 * reserved before it is written. Within its share a tenant makes room from
 * its own artifacts alone, the oldest first, never another tenant's; within
 * the worker's quota room is made from the tenant that holds the most, its
 * oldest first, so a tenant that keeps little never loses its artifacts to
 * one that keeps much. The dispatch being collected and files still being
 * written never go. It holds no files itself: the store deletes what it is
 * told to, and builds the account again from its directory at start.
 */
final class ArtifactDisk {

    /** A dispatch's kept artifacts: how many bytes, kept when. */
    record Kept(long bytes, Instant at) {}

    private final long max;
    private final long perTenant;
    private final Map<String, Kept> kept = new HashMap<>();
    private final Map<String, Long> reservedBy = new HashMap<>();
    private long reserved;

    ArtifactDisk(long max, long perTenant) {
        this.max = max;
        this.perTenant = Math.min(perTenant, max);
    }

    long max() {
        return max;
    }

    long perTenant() {
        return perTenant;
    }

    /**
     * Reserves {@code bytes} for a file of dispatch {@code collecting}: the
     * dispatches whose artifacts must go to make room, possibly none, or
     * empty when not even that would make room. Those chosen are taken off
     * the account at once.
     */
    synchronized Optional<List<String>> reserve(long bytes, String collecting) {
        String tenant = Keys.tenantOf(collecting);
        Set<String> going = new HashSet<>();
        // Within the tenant's share: its own oldest go, never another tenant's.
        long mine = used(tenant, going);
        for (String id : oldest(tenant, collecting, going)) {
            if (mine + bytes <= perTenant) {
                break;
            }
            going.add(id);
            mine -= kept.get(id).bytes();
        }
        if (mine + bytes > perTenant) {
            return Optional.empty();
        }
        // Within the worker's quota: the oldest of whichever tenant holds the most.
        while (max - used(going) < bytes) {
            Optional<String> next = heaviest(collecting, going)
                    .flatMap(t -> oldest(t, collecting, going).stream().findFirst());
            if (next.isEmpty()) {
                return Optional.empty();
            }
            going.add(next.get());
        }
        List<String> evicted = new ArrayList<>(going);
        evicted.sort(Comparator.comparing((String id) -> kept.get(id).at()).thenComparing(id -> id));
        evicted.forEach(kept::remove);
        reserved += bytes;
        reservedBy.merge(tenant, bytes, Long::sum);
        return Optional.of(evicted);
    }

    /** Gives back room reserved for files of dispatch {@code id} that were not kept. */
    synchronized void release(String id, long bytes) {
        unreserve(Keys.tenantOf(id), bytes);
    }

    /** The reserved {@code bytes} are now dispatch {@code id}'s kept artifacts, in place of any before. */
    synchronized void commit(String id, long bytes, Instant at) {
        unreserve(Keys.tenantOf(id), bytes);
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
        return used(Set.of());
    }

    /** The bytes of {@code tenant}'s kept artifacts and of its files being written. */
    synchronized long used(String tenant) {
        return used(tenant, Set.of());
    }

    private void unreserve(String tenant, long bytes) {
        reserved -= bytes;
        reservedBy.computeIfPresent(tenant, (t, held) -> held - bytes == 0 ? null : held - bytes);
    }

    private long used(Set<String> going) {
        long sum = reserved;
        for (Map.Entry<String, Kept> e : kept.entrySet()) {
            sum += going.contains(e.getKey()) ? 0 : e.getValue().bytes();
        }
        return sum;
    }

    private long used(String tenant, Set<String> going) {
        long sum = reservedBy.getOrDefault(tenant, 0L);
        for (Map.Entry<String, Kept> e : kept.entrySet()) {
            if (!going.contains(e.getKey()) && Keys.tenantOf(e.getKey()).equals(tenant)) {
                sum += e.getValue().bytes();
            }
        }
        return sum;
    }

    /** {@code tenant}'s kept dispatches that may go, oldest first. */
    private List<String> oldest(String tenant, String collecting, Set<String> going) {
        return kept.entrySet().stream()
                .filter(e -> !e.getKey().equals(collecting) && !going.contains(e.getKey()))
                .filter(e -> Keys.tenantOf(e.getKey()).equals(tenant))
                .sorted(Comparator.comparing(
                                (Map.Entry<String, Kept> e) -> e.getValue().at())
                        .thenComparing(Map.Entry::getKey))
                .map(Map.Entry::getKey)
                .toList();
    }

    /** The tenant whose kept artifacts that may go take the most bytes; empty when none may go. */
    private Optional<String> heaviest(String collecting, Set<String> going) {
        Set<String> tenants = new HashSet<>();
        kept.forEach((id, k) -> {
            if (!id.equals(collecting) && !going.contains(id)) {
                tenants.add(Keys.tenantOf(id));
            }
        });
        return tenants.stream()
                .max(Comparator.comparingLong((String t) -> used(t, going)).thenComparing(t -> t));
    }
}
