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
import java.util.HexFormat;
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
 * retention are swept, as are what a crash left half written.
 */
public final class ArtifactStore {

    private static final Logger LOG = Logger.getLogger(ArtifactStore.class);
    private static final Pattern DISPATCH_ID = Pattern.compile(Keys.KEY);
    private static final String INCOMING = ".incoming-";
    /** A directory still incoming after this long was left by a crash: a read ends within the call deadline. */
    private static final Duration ABANDONED = Duration.ofHours(1);

    private final Path root;
    private final Duration retention;
    private final Clock clock;

    public ArtifactStore(Path root, Duration retention, Clock clock) {
        this.root = root;
        this.retention = retention;
        this.clock = clock;
    }

    public Duration retention() {
        return retention;
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

    /** Deletes a dispatch's artifacts, if any. */
    public void delete(String dispatchId) {
        Path dir = directory(dispatchId);
        if (dir != null) {
            deleteTree(dir);
        }
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
                boolean incoming = dir.getFileName().toString().startsWith(INCOMING);
                if (Files.getLastModifiedTime(dir).toInstant().isBefore(incoming ? abandoned : before)) {
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
        private boolean committed;

        private Incoming(String dispatchId, Path dir) {
            this.dispatchId = dispatchId;
            this.dir = dir;
        }

        /** A new file for artifact {@code name}; fails if the name was given before. */
        OutputStream create(String name) throws IOException {
            Files.createDirectories(dir);
            return Files.newOutputStream(dir.resolve(fileName(name)), StandardOpenOption.CREATE_NEW);
        }

        void remove(String name) {
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
            // The retention counts from here: the sweep reads the directory's time.
            Files.setLastModifiedTime(target, FileTime.from(clock.instant()));
        }

        @Override
        public void close() {
            if (!committed) {
                deleteTree(dir);
            }
        }
    }
}
