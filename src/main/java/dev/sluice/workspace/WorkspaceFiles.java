package dev.sluice.workspace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

import org.jboss.logging.Logger;

import dev.sluice.store.Keys;

/**
 * Where workspaces wait while their dispatches are queued (ADR 0060): one
 * tar file each in {@code workspaces/} under {@code sluice.data-dir}, named by
 * the dispatch's key, never in the store's spec column (ADR 0057 reads specs
 * back for the queue). A workspace is written under a temporary name while it
 * is checked and renamed to its key once its dispatch is recorded, so a
 * refused request leaves nothing; files of ended dispatches are deleted when
 * they end, and at start-up whatever is left.
 */
final class WorkspaceFiles {

    private static final Logger LOG = Logger.getLogger(WorkspaceFiles.class);
    private static final String KEPT = ".tar";
    private static final String STAGING = ".staging";
    private static final Pattern KEY = Pattern.compile(Keys.KEY);

    private final Path directory;

    WorkspaceFiles(Path directory) {
        this.directory = directory;
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + directory, e);
        }
    }

    /** A new temporary file to write a workspace or a fetched archive into. */
    Path temporary() {
        return directory.resolve(UUID.randomUUID() + STAGING);
    }

    /**
     * Keeps a checked workspace under its dispatch's key. The dispatch is
     * recorded by then: a rename that fails leaves it without its workspace,
     * which it says when it starts.
     */
    void keep(Path staged, String key) {
        try {
            Files.move(staged, file(key), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            LOG.errorf("could not keep the workspace of %s: %s", key, e.getMessage());
        }
    }

    /** The kept workspace of a dispatch, if there is one. */
    Optional<Path> kept(String key) {
        Path file = file(key);
        return Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
    }

    void delete(String key) {
        if (KEY.matcher(key).matches()) {
            deleteQuietly(file(key));
        }
    }

    /** The keys of the workspaces kept; temporary files, which nothing uses once the worker starts, are deleted. */
    List<String> sweepTemporaries() {
        List<String> keys = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                if (name.endsWith(STAGING)) {
                    deleteQuietly(f);
                } else if (name.endsWith(KEPT)) {
                    keys.add(name.substring(0, name.length() - KEPT.length()));
                }
            }
        } catch (IOException e) {
            LOG.warnf("could not list %s: %s", directory, e.getMessage());
        }
        return keys;
    }

    private Path file(String key) {
        return directory.resolve(key + KEPT);
    }

    static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warnf("could not delete %s: %s", file, e.getMessage());
        }
    }
}
