package dev.sluice.artifact;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

import org.jboss.logging.Logger;

import dev.sluice.hashing.Sha256;
import dev.sluice.store.Keys;

/**
 * Kept artifacts on the worker's disk (ADR 0029): a directory per dispatch
 * under {@code sluice.artifacts.dir}, each file named by the SHA-256 of its
 * artifact name, so no name the agent chose is ever a path here. A dispatch's
 * files are written into a directory of their own and renamed into place
 * whole, so a reader sees all of them or none. Directories older than the
 * retention are swept, as are what a crash left half written. All of them
 * together stay within {@code sluice.artifacts.max-disk} (ADR 0055), and one
 * tenant's within {@code max-disk-per-tenant} (ADR 0073): room for a file is
 * reserved before it is written, by deleting older artifacts if need be (a
 * tenant's own first, {@link ArtifactDisk}); each of those leaves a mark of its
 * eviction, kept for the retention, so a request for them says why they are
 * gone. The account is built from the directory at the first use and at each
 * sweep, so it survives restarts and sees what other workers sharing the
 * directory kept.
 */
public final class ArtifactStore {

    private static final Logger LOG = Logger.getLogger(ArtifactStore.class);
    private static final Pattern DISPATCH_ID = Pattern.compile(Keys.KEY);
    private static final String INCOMING = ".incoming-";
    /** What is left of a dispatch whose artifacts the quota took: an empty file. */
    private static final String EVICTED = ".evicted-";
    /** Artifacts on their way out, renamed first so a reader never sees half of them. */
    private static final String DELETING = ".deleting-";
    /** A directory still incoming after this long was left by a crash: a read ends within the call deadline. */
    private static final Duration ABANDONED = Duration.ofHours(1);

    private final Path root;
    private final Duration retention;
    private final Clock clock;
    private final ArtifactDisk disk;
    private boolean counted;

    /** A store with no bound on its disk beyond each dispatch's. */
    public ArtifactStore(Path root, Duration retention, Clock clock) {
        this(root, retention, Long.MAX_VALUE, Long.MAX_VALUE, clock);
    }

    /**
     * @param maxDisk          {@code sluice.artifacts.max-disk}, every tenant's artifacts together
     * @param maxDiskPerTenant {@code max-disk-per-tenant}, one tenant's (ADR 0073)
     */
    public ArtifactStore(Path root, Duration retention, long maxDisk, long maxDiskPerTenant, Clock clock) {
        this.root = root;
        this.retention = retention;
        this.clock = clock;
        this.disk = new ArtifactDisk(maxDisk, maxDiskPerTenant);
    }

    public Duration retention() {
        return retention;
    }

    /** {@code sluice.artifacts.max-disk}, in bytes. */
    public long maxDisk() {
        return disk.max();
    }

    /** {@code sluice.artifacts.max-disk-per-tenant}, in bytes. */
    public long maxDiskPerTenant() {
        return disk.perTenant();
    }

    /** The bytes of kept artifacts and of those being written, as the account has them. */
    long used() {
        counted();
        return disk.used();
    }

    /** The bytes of {@code tenant}'s kept artifacts and of those being written. */
    long used(String tenant) {
        counted();
        return disk.used(tenant);
    }

    /** Whether the dispatch's artifacts were deleted to keep the quota (and its retention has not passed since). */
    public boolean evicted(String dispatchId) {
        Path dir = directory(dispatchId);
        return dir != null && Files.exists(root.resolve(EVICTED + dispatchId));
    }

    /**
     * A directory to write a dispatch's artifacts into, out of readers' sight
     * until committed; made when its first file is.
     */
    Incoming incoming(String dispatchId) {
        return new Incoming(dispatchId, root.resolve(INCOMING + dispatchId + "-" + UUID.randomUUID()));
    }

    /** The kept file of artifact {@code name} of a dispatch, if it is here. */
    public Optional<Path> file(String dispatchId, String name) {
        Path dir = directory(dispatchId);
        if (dir == null) {
            return Optional.empty();
        }
        Path file = dir.resolve(fileName(name));
        return Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
    }

    /** Whether this worker's disk holds the dispatch's artifacts. */
    public boolean holds(String dispatchId) {
        Path dir = directory(dispatchId);
        return dir != null && Files.isDirectory(dir);
    }

    /** Deletes a dispatch's artifacts, if any, and the mark of their eviction. */
    public void delete(String dispatchId) {
        Path dir = directory(dispatchId);
        if (dir != null) {
            deleteTree(dir);
            deleteTree(root.resolve(EVICTED + dispatchId));
            disk.forget(dispatchId);
        }
    }

    /**
     * Room for {@code bytes} more of dispatch {@code collecting}'s artifacts,
     * made by evicting the oldest other dispatches' if need be; false when
     * even that would not make it.
     */
    private boolean reserve(long bytes, String collecting) {
        counted();
        Optional<List<String>> evicted = disk.reserve(bytes, collecting);
        evicted.ifPresent(ids -> ids.forEach(this::evict));
        return evicted.isPresent();
    }

    /** Marks the dispatch's artifacts evicted, then takes them out of readers' sight and deletes them. */
    private void evict(String dispatchId) {
        Path dir = root.resolve(dispatchId);
        try {
            Path mark = Files.write(root.resolve(EVICTED + dispatchId), new byte[0]);
            Files.setLastModifiedTime(mark, FileTime.from(clock.instant())); // the sweep reads it as a directory's
            Path deleting = root.resolve(DELETING + UUID.randomUUID());
            Files.move(dir, deleting, StandardCopyOption.ATOMIC_MOVE);
            deleteTree(deleting);
            LOG.infof(
                    "deleted the artifacts of dispatch %s to keep sluice.artifacts.max-disk (%d bytes) and"
                            + " max-disk-per-tenant (%d bytes)",
                    dispatchId, disk.max(), disk.perTenant());
        } catch (IOException e) {
            LOG.warnf("could not delete the artifacts of dispatch %s for the quota: %s", dispatchId, e.getMessage());
        }
    }

    /** The account, built from the directory the first time it is asked for. */
    private synchronized void counted() {
        if (!counted) {
            disk.rebuild(scan());
            counted = true;
        }
    }

    /** Every dispatch directory: the bytes of its files, and when it was kept. */
    private Map<String, ArtifactDisk.Kept> scan() {
        Map<String, ArtifactDisk.Kept> found = new HashMap<>();
        if (!Files.isDirectory(root)) {
            return found;
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(
                root, d -> !d.getFileName().toString().startsWith(".") && Files.isDirectory(d))) {
            for (Path dir : dirs) {
                long bytes = 0;
                try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
                    for (Path file : files) {
                        bytes += Files.size(file);
                    }
                }
                found.put(
                        dir.getFileName().toString(),
                        new ArtifactDisk.Kept(
                                bytes, Files.getLastModifiedTime(dir).toInstant()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("count " + root, e);
        }
        return found;
    }

    /** Deletes the artifacts of dispatches kept past the retention, and what crashes left; returns how many. */
    public int sweep() {
        if (!Files.isDirectory(root)) {
            return 0;
        }
        Instant before = clock.instant().minus(retention);
        Instant abandoned = clock.instant().minus(ABANDONED);
        int deleted = 0;
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root)) {
            for (Path dir : dirs) {
                String name = dir.getFileName().toString();
                boolean scratch = name.startsWith(INCOMING) || name.startsWith(DELETING);
                if (Files.getLastModifiedTime(dir).toInstant().isBefore(scratch ? abandoned : before)) {
                    deleteTree(dir);
                    deleted++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("list " + root, e);
        }
        if (deleted > 0) {
            LOG.infof("deleted the artifacts of %d dispatches finished over %s ago", deleted, retention);
        }
        synchronized (this) {
            disk.rebuild(scan()); // what was swept, and what other workers sharing the directory kept
            counted = true;
        }
        return deleted;
    }

    private Path directory(String dispatchId) {
        return DISPATCH_ID.matcher(dispatchId).matches() ? root.resolve(dispatchId) : null;
    }

    /** The file an artifact is kept in: the SHA-256 of its name, never the name itself. */
    static String fileName(String name) {
        return HexFormat.of().formatHex(Sha256.digest().digest(name.getBytes(StandardCharsets.UTF_8)));
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            LOG.warnf("could not delete %s: %s", dir, e.getMessage());
        }
    }

    /** A dispatch's artifacts being written: committed whole, or deleted on close. */
    final class Incoming implements AutoCloseable {

        private final String dispatchId;
        private final Path dir;
        private final Map<String, Long> sizes = new HashMap<>();
        private boolean committed;

        private Incoming(String dispatchId, Path dir) {
            this.dispatchId = dispatchId;
            this.dir = dir;
        }

        /**
         * A new file of {@code size} bytes for artifact {@code name}, with room
         * for it within the quota; fails if the name was given before, or if
         * no room can be made.
         */
        OutputStream create(String name, long size) throws IOException {
            if (sizes.containsKey(name)) {
                throw new IOException("artifact " + name + " was given twice");
            }
            if (!reserve(size, dispatchId)) {
                throw new IOException("no room within sluice.artifacts.max-disk or max-disk-per-tenant");
            }
            sizes.put(name, size);
            try {
                Files.createDirectories(dir);
                return Files.newOutputStream(dir.resolve(fileName(name)), StandardOpenOption.CREATE_NEW);
            } catch (IOException e) {
                disk.release(dispatchId, sizes.remove(name));
                throw e;
            }
        }

        void remove(String name) {
            Long size = sizes.remove(name);
            if (size != null) {
                disk.release(dispatchId, size);
            }
            try {
                Files.deleteIfExists(dir.resolve(fileName(name)));
            } catch (IOException e) {
                LOG.warnf("could not delete a partial artifact: %s", e.getMessage());
            }
        }

        /**
         * Puts the files in place of any earlier ones of the dispatch (a worker
         * that took the dispatch over after a crash reads them again).
         */
        void commit() throws IOException {
            Path target = directory(dispatchId);
            if (target == null) {
                throw new IOException("not a dispatch id: " + dispatchId);
            }
            deleteTree(target);
            Files.move(dir, target, StandardCopyOption.ATOMIC_MOVE);
            committed = true;
            Instant now = clock.instant();
            disk.commit(
                    dispatchId,
                    sizes.values().stream().mapToLong(Long::longValue).sum(),
                    now);
            deleteTree(root.resolve(EVICTED + dispatchId));
            // The retention counts from here: the sweep reads the directory's time.
            Files.setLastModifiedTime(target, FileTime.from(now));
        }

        @Override
        public void close() {
            if (!committed) {
                sizes.values().forEach(size -> disk.release(dispatchId, size));
                deleteTree(dir);
            }
        }
    }
}
