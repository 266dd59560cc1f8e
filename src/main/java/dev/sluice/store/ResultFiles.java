package dev.sluice.store;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

import org.jboss.logging.Logger;

/**
 * The embedded store's result bodies: one file each, in {@code results/}
 * beside the database (ADR 0017). A body is written to a temporary file,
 * forced to disk, renamed to a name no other write uses, and the directory
 * forced too, all before the row that names it commits; so a row never names
 * a missing or partial file, and a dispatch finished twice (a race the row's
 * conditional update settles) never overwrites the winner's body. A crash
 * between the file and the commit leaves a file no row names; the sweep at
 * start-up deletes it.
 */
public final class ResultFiles implements ResultBodies {

    private static final Logger LOG = Logger.getLogger(ResultFiles.class);
    private static final Pattern NAME = Pattern.compile(Keys.KEY + "-[0-9a-f-]{36}\\.json");
    private static final String TEMPORARY = ".tmp";
    private static final int SLICE = 64 * 1024;

    private final Path directory;
    private final Jdbc jdbc;
    private final Clock clock;
    /** Files last modified before this were swept already: a file a row names stays named until it is deleted. */
    private Instant sweptUpTo = Instant.EPOCH;

    public ResultFiles(Path directory, Jdbc jdbc, Clock clock) {
        this.directory = directory;
        this.jdbc = jdbc;
        this.clock = clock;
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + directory, e);
        }
    }

    /** The body is written straight into its file, never held whole on the heap. */
    @Override
    public Put put(String dispatchId, Content content) {
        String name = dispatchId + "-" + UUID.randomUUID() + ".json";
        Path temporary = directory.resolve(name + TEMPORARY);
        try {
            long size;
            try (FileChannel file =
                    FileChannel.open(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                // Buffered in slices: a large heap buffer written whole would be copied whole into a direct one.
                OutputStream out = new BufferedOutputStream(Channels.newOutputStream(file), SLICE);
                content.writeTo(out);
                out.flush();
                size = file.size();
                file.force(true);
            }
            Files.move(temporary, directory.resolve(name), StandardCopyOption.ATOMIC_MOVE);
            forceDirectory();
            return new Put(name, null, size);
        } catch (IOException e) {
            deleteQuietly(temporary);
            throw new StoreException("write result file " + name, e);
        }
    }

    private void forceDirectory() throws IOException {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        }
    }

    @Override
    public void discard(Put put) {
        delete(put.file());
    }

    @Override
    public void delete(String file) {
        if (file != null && NAME.matcher(file).matches()) {
            deleteQuietly(directory.resolve(file));
        }
    }

    @Override
    public StoredBody file(String file, long size) {
        if (!NAME.matcher(file).matches()) {
            throw new StoreException("read result file", new IOException("not a result file name: " + file));
        }
        Path path = directory.resolve(file);
        try {
            return StoredBody.of(path, size >= 0 ? size : Files.size(path));
        } catch (IOException e) {
            throw new StoreException("read result file " + file, e);
        }
    }

    /**
     * Deletes what a crash left: temporary files, and result files that no
     * row names and that are older than {@code settled} (younger ones may
     * belong to a finish whose row is about to commit). Each file is looked at
     * once. Returns how many it deleted.
     */
    @Override
    public synchronized int sweep(Duration settled) {
        Instant before = clock.instant().minus(settled);
        List<Path> candidates = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path f : files) {
                Instant modified = Files.getLastModifiedTime(f).toInstant();
                if (!modified.isBefore(sweptUpTo) && modified.isBefore(before)) {
                    candidates.add(f);
                }
            }
        } catch (IOException e) {
            throw new StoreException("list result files", e);
        }
        int deleted = 0;
        for (int from = 0; from < candidates.size(); from += 500) {
            List<Path> batch = candidates.subList(from, Math.min(candidates.size(), from + 500));
            Set<String> named =
                    named(batch.stream().map(p -> p.getFileName().toString()).toList());
            for (Path f : batch) {
                if (!named.contains(f.getFileName().toString())) {
                    deleteQuietly(f);
                    deleted++;
                }
            }
        }
        sweptUpTo = before;
        if (deleted > 0) {
            LOG.infof("deleted %d result files no record names", deleted);
        }
        return deleted;
    }

    private Set<String> named(List<String> names) {
        return new HashSet<>(jdbc.query(
                "SELECT result_file FROM dispatches WHERE result_file IN (" + Jdbc.marks(names.size()) + ")",
                row -> row.string(1),
                names.toArray()));
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warnf("could not delete %s: %s", file, e.getMessage());
        }
    }
}
