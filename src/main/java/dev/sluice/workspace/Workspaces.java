package dev.sluice.workspace;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import dev.sluice.hashing.Sha256;
import dev.sluice.outbound.CallbackUrlPolicy;
import dev.sluice.record.DispatchSpec;

/**
 * A dispatch's workspace from its request to its container (ADR 0060). At
 * intake, {@link #stage} checks the inline files and an inline archive entry
 * by entry into one tar file, which {@link #keep} names after the dispatch
 * once it is recorded; a refused request leaves nothing. When the dispatch
 * starts, {@link #prepare} gives the tar to upload, fetching and checking an
 * archive named by URL first. When it ends, {@link #ended} deletes it. What
 * is kept is counted per tenant between {@link #reserve} and {@link #ended}
 * ({@link KeptBytes}, ADR 0073).
 */
public final class Workspaces implements AutoCloseable {

    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

    private final WorkspaceLimits limits;
    private final WorkspaceFiles files;
    private final CallbackUrlPolicy urls;
    private final ArchiveFetch fetch;
    private final KeptBytes keptBytes;

    Workspaces(
            WorkspaceLimits limits,
            WorkspaceFiles files,
            CallbackUrlPolicy urls,
            ArchiveFetch fetch,
            KeptBytes keptBytes) {
        this.limits = limits;
        this.files = files;
        this.urls = urls;
        this.fetch = fetch;
        this.keptBytes = keptBytes;
    }

    /** A workspace checked at intake: its tar under a temporary name, until {@link #keep} or {@link #close}. */
    public final class Staged implements AutoCloseable {
        private final Path file;
        private final DispatchSpec.Workspace source;
        private boolean kept;
        private KeptBytes.Reservation reserved;

        Staged(Path file, DispatchSpec.Workspace source) {
            this.file = file;
            this.source = source;
        }

        /** What the spec records of it; {@code null} when the request's workspace holds nothing. */
        public DispatchSpec.Workspace source() {
            return source;
        }

        /** Deletes the tar unless it was kept: a refused or replayed request leaves no file, and holds no bytes. */
        @Override
        public void close() {
            if (!kept && file != null) {
                WorkspaceFiles.deleteQuietly(file);
            }
            if (!kept && reserved != null) {
                keptBytes.release(reserved);
                reserved = null;
            }
        }
    }

    /** Checks a request's workspace; a {@link WorkspaceRefused} names the field or entry refused. */
    public Staged stage(WorkspaceRequest request) {
        WorkspaceRequest.Archive archive = request.archive();
        String url = archive == null ? null : archive.url();
        checkArchive(archive);
        List<WorkspaceRequest.File> given = request.files() == null ? List.of() : request.files();
        if (!request.inline()) {
            return new Staged(null, url == null ? null : new DispatchSpec.Workspace(false, url, archive.sha256()));
        }
        Path file = files.temporary();
        Staged staged = new Staged(file, new DispatchSpec.Workspace(true, url, url == null ? null : archive.sha256()));
        try (WorkspaceTree tree = new WorkspaceTree(limits, file)) {
            if (archive != null && archive.base64() != null) {
                ArchiveEntries.read("workspace.archive", inlineArchive(archive), tree, limits);
            }
            for (int i = 0; i < given.size(); i++) {
                addFile("workspace.files." + i, given.get(i), tree);
            }
            tree.complete();
        } catch (IOException e) {
            staged.close();
            throw new UncheckedIOException("write a workspace", e);
        } catch (RuntimeException e) {
            staged.close();
            throw e;
        }
        return staged;
    }

    /**
     * Counts a staged workspace's bytes for {@code tenant}, before its dispatch
     * is recorded; a {@link dev.sluice.record.RequestRefused} ({@code workspaces-full})
     * when the tenant's share, or the worker's bound, has no room for them.
     */
    public void reserve(Staged staged, String tenant) {
        if (staged.file == null || staged.reserved != null) {
            return;
        }
        try {
            staged.reserved = keptBytes.reserve(tenant, Files.size(staged.file));
        } catch (IOException e) {
            throw new UncheckedIOException("measure a workspace", e);
        }
    }

    /** Names the staged tar after the dispatch it belongs to, once that is recorded. */
    public void keep(Staged staged, String key) {
        if (staged.file != null) {
            files.keep(staged.file, key);
            staged.kept = true;
            if (staged.reserved != null) {
                keptBytes.kept(key, staged.reserved);
            }
        }
    }

    /**
     * The tar to place in a starting dispatch's container: the one kept at
     * intake, or, with an archive URL, that archive fetched, checked and
     * joined with the files kept at intake into a file of this run's that
     * {@link Prepared#close} deletes. A {@link WorkspaceRefused} says why it
     * cannot be had.
     */
    public Prepared prepare(String key, DispatchSpec.Workspace source) {
        Optional<Path> kept = source.kept() ? files.kept(key) : Optional.empty();
        if (source.kept() && kept.isEmpty()) {
            throw new WorkspaceRefused(
                    "workspace", "is not on this worker's disk (it is kept only on the worker that accepted it)");
        }
        if (source.archiveUrl() == null) {
            return new Prepared(kept.get(), false);
        }
        Path fetched = files.temporary();
        Path joined = files.temporary();
        try {
            fetch.fetch(source.archiveUrl(), source.archiveSha256(), limits.maxArchive(), fetched);
            try (WorkspaceTree tree = new WorkspaceTree(limits, joined);
                    InputStream archive = Files.newInputStream(fetched)) {
                ArchiveEntries.read("workspace.archive", archive, tree, limits);
                if (kept.isPresent()) {
                    try (InputStream inline = Files.newInputStream(kept.get())) {
                        ArchiveEntries.read("workspace.files", inline, tree, limits);
                    }
                }
                tree.complete();
            }
            return new Prepared(joined, true);
        } catch (IOException e) {
            WorkspaceFiles.deleteQuietly(joined);
            throw new WorkspaceRefused("workspace", "could not be written on the worker's disk");
        } catch (RuntimeException e) {
            WorkspaceFiles.deleteQuietly(joined);
            throw e;
        } finally {
            WorkspaceFiles.deleteQuietly(fetched);
        }
    }

    /** A workspace ready to be placed: a plain tar on the worker's disk. */
    public record Prepared(Path tar, boolean temporary) implements AutoCloseable {
        @Override
        public void close() {
            if (temporary) {
                WorkspaceFiles.deleteQuietly(tar);
            }
        }
    }

    /** Deletes the workspace a dispatch kept, once it has ended, and gives back its bytes. */
    public void ended(String key) {
        files.delete(key);
        keptBytes.ended(key);
    }

    /** The keys of the workspaces kept, after deleting temporary files: for the sweep at start-up. */
    List<String> sweepTemporaries() {
        return files.sweepTemporaries();
    }

    /** A workspace kept before this start, for a dispatch still to run: its bytes are counted again. */
    void stillKept(String key) {
        files.kept(key).ifPresent(tar -> {
            try {
                keptBytes.found(key, Files.size(tar));
            } catch (IOException e) {
                // gone meanwhile: nothing to count
            }
        });
    }

    @Override
    public void close() {
        try {
            fetch.close();
        } catch (IOException e) {
            // closing idle connections
        }
    }

    private void checkArchive(WorkspaceRequest.Archive archive) {
        if (archive == null) {
            return;
        }
        boolean inline = archive.base64() != null;
        if (inline == (archive.url() != null)) {
            throw new WorkspaceRefused("workspace.archive", "must give either base64 or url");
        }
        if (archive.sha256() != null && !SHA256.matcher(archive.sha256()).matches()) {
            throw new WorkspaceRefused("workspace.archive.sha256", "must be 64 lowercase hex digits");
        }
        if (!inline) {
            if (archive.sha256() == null) {
                throw new WorkspaceRefused("workspace.archive.sha256", "is required with url");
            }
            if (!archive.url().regionMatches(true, 0, "https://", 0, 8)) {
                throw new WorkspaceRefused("workspace.archive.url", "must be an https URL");
            }
            urls.problem(archive.url()).ifPresent(problem -> {
                throw new WorkspaceRefused("workspace.archive.url", problem);
            });
        }
    }

    private InputStream inlineArchive(WorkspaceRequest.Archive archive) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(archive.base64());
        } catch (IllegalArgumentException e) {
            throw new WorkspaceRefused("workspace.archive.base64", "is not valid base64");
        }
        if (archive.sha256() != null) {
            MessageDigest sha = Sha256.digest();
            String digest = HexFormat.of().formatHex(sha.digest(bytes));
            if (!digest.equals(archive.sha256())) {
                throw new WorkspaceRefused("workspace.archive.sha256", "does not match the archive");
            }
        }
        return new ByteArrayInputStream(bytes);
    }

    private void addFile(String field, WorkspaceRequest.File file, WorkspaceTree tree) throws IOException {
        if (file == null) {
            throw new WorkspaceRefused(field, "must be an object with a path");
        }
        String path = WorkspacePaths.normalize(field + ".path", file.path(), limits.maxPathLength());
        int mode = WorkspacePaths.mode(field + ".mode", file.mode());
        byte[] content = content(field, file);
        tree.file(field, path.isEmpty() ? file.path() : path, mode, content.length, new ByteArrayInputStream(content));
    }

    private byte[] content(String field, WorkspaceRequest.File file) {
        String content = file.content() == null ? "" : file.content();
        String encoding = file.encoding() == null ? "utf8" : file.encoding();
        // A bound before decoding too: a content far over it is refused without a copy.
        if (content.length() > limits.maxBytes() * 4 / 3 + 4) {
            throw new WorkspaceRefused(field, "makes the workspace larger than " + limits.maxBytes() + " bytes");
        }
        return switch (encoding) {
            case "utf8" -> content.getBytes(StandardCharsets.UTF_8);
            case "base64" -> {
                try {
                    yield Base64.getDecoder().decode(content);
                } catch (IllegalArgumentException e) {
                    throw new WorkspaceRefused(field + ".content", "is not valid base64");
                }
            }
            default -> throw new WorkspaceRefused(field + ".encoding", "must be utf8 or base64");
        };
    }
}
