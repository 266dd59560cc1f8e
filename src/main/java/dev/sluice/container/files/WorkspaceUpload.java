package dev.sluice.container.files;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;

import dev.sluice.container.engine.ArchiveUpload;
import dev.sluice.container.engine.ContainerException;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.sandbox.ContainerUser;

/**
 * A dispatch's workspace in its container (ADR 0060). A tmpfs is empty until
 * the container starts, so a container given a workspace has its work area on
 * an anonymous volume of the engine instead, labelled and bounded as the
 * out-directory's is and removed with the container; the workspace is
 * uploaded into it before the start through the engine's archive call. Every
 * entry is given to the container's user, and so is the work area itself: the
 * engine applies an entry named {@code /} to the directory it unpacks into,
 * and leaves the root's own {@code .} alone.
 */
public final class WorkspaceUpload {

    private WorkspaceUpload() {}

    /** The work area's volume, in place of its tmpfs. */
    public static Mount mount(String workDir, OutDirectory volumes, Map<String, String> labels) {
        return new Mount()
                .withType(MountType.VOLUME)
                .withTarget(workDir)
                .withVolumeOptions(volumes.volumeOptions(labels));
    }

    /** Uploads the checked tar {@code workspace} into the container's work area, owned by {@code user}. */
    public static void put(
            DockerClients clients,
            String containerId,
            String workDir,
            Path workspace,
            Optional<ContainerUser.RunAs> user) {
        Path owned = workspace.resolveSibling(workspace.getFileName() + "." + containerId.substring(0, 12));
        try {
            try {
                rewrite(workspace, owned, user);
            } catch (IOException e) {
                throw new ContainerException(
                        ContainerException.Reason.ENGINE_UNAVAILABLE,
                        "the workspace could not be read from the worker's disk: " + e.getMessage());
            }
            try (InputStream tar = new BufferedInputStream(Files.newInputStream(owned), 64 * 1024)) {
                ArchiveUpload.put(clients, containerId, workDir, tar, "place the workspace");
            } catch (IOException e) {
                throw new ContainerException(
                        ContainerException.Reason.ENGINE_UNAVAILABLE,
                        "the workspace could not be read from the worker's disk: " + e.getMessage());
            }
        } finally {
            try {
                Files.deleteIfExists(owned);
            } catch (IOException e) {
                // a leftover beside the workspaces is swept at the next start
            }
        }
    }

    /** The same entries, each owned by {@code user}, after a first entry for the work area itself. */
    private static void rewrite(Path from, Path to, Optional<ContainerUser.RunAs> user) throws IOException {
        try (TarArchiveInputStream in =
                        new TarArchiveInputStream(new BufferedInputStream(Files.newInputStream(from), 64 * 1024));
                OutputStream file = new BufferedOutputStream(Files.newOutputStream(to), 64 * 1024);
                TarArchiveOutputStream out = new TarArchiveOutputStream(file)) {
            out.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            out.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
            TarArchiveEntry root = new TarArchiveEntry("/", true);
            root.setMode(TarArchiveEntry.DEFAULT_DIR_MODE & ~0777 | 01777);
            own(root, user);
            out.putArchiveEntry(root);
            out.closeArchiveEntry();
            for (TarArchiveEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                own(entry, user);
                out.putArchiveEntry(entry);
                if (entry.isFile() && !entry.isLink()) {
                    in.transferTo(out);
                }
                out.closeArchiveEntry();
            }
        }
    }

    private static void own(TarArchiveEntry entry, Optional<ContainerUser.RunAs> user) {
        entry.setUserName("");
        entry.setGroupName("");
        entry.setUserId(user.map(ContainerUser.RunAs::uid).orElse(0L));
        entry.setGroupId(user.map(ContainerUser.RunAs::gid).orElse(0L));
    }
}
