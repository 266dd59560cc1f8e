package dev.sluice.container;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;

import com.github.dockerjava.api.exception.BadRequestException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;

/**
 * The /etc/hosts of containers in a bare network namespace (ADR 0043), which
 * the engine leaves empty. One file, with the lines the engine writes for its
 * own {@code none} network, lives on a named volume of the engine; containers
 * get it bind-mounted read-only from the volume's path on the engine's host,
 * which the engine resolves (the worker never touches that path itself).
 *
 * <p>The volume is created, or found, at the first use. The file is written
 * only when a create finds it missing (a fresh engine, a pruned volume):
 * through a helper container of the dispatch's image that mounts the volume,
 * is never started, and is removed at once. The helper is labelled as a
 * dispatch without a record, so the reaper removes it should the worker stop
 * between its create and its removal. Workers sharing the engine write the
 * same bytes.
 */
final class HostsFile {

    /** The named volume that holds the file. */
    static final String VOLUME = "sluice-etc-hosts";

    /** What the engine writes to /etc/hosts for its {@code none} network. */
    static final byte[] CONTENT = ("127.0.0.1\tlocalhost\n"
                    + "::1\tlocalhost ip6-localhost ip6-loopback\n"
                    + "fe00::0\tip6-localnet\n"
                    + "ff00::0\tip6-mcastprefix\n"
                    + "ff02::1\tip6-allnodes\n"
                    + "ff02::2\tip6-allrouters\n")
            .getBytes(StandardCharsets.US_ASCII);

    private static final String FILE = "hosts";
    /** Where the helper mounts the volume. */
    private static final String HELPER_TARGET = "/sluice-etc-hosts";

    private final DockerClients clients;
    private final Consumer<String> remove;
    /** The file's path on the engine's host, once the volume is known. */
    private volatile String source;
    /** How many times this worker has written the file; guarded by {@code this}. */
    private long writes;

    /** @param remove how containers are removed, so the helper goes the way every container does */
    HostsFile(DockerClients clients, Consumer<String> remove) {
        this.clients = clients;
        this.remove = remove;
    }

    /** The read-only bind mount of the file at /etc/hosts; creates or finds the volume the first time. */
    Mount mount() {
        String path = source;
        if (path == null) {
            synchronized (this) {
                path = source != null ? source : (source = volumePath());
            }
        }
        return new Mount()
                .withType(MountType.BIND)
                .withSource(path)
                .withTarget("/etc/hosts")
                .withReadOnly(true);
    }

    /**
     * Finds the volume without creating it, for the warm-up, so that the first
     * create need not ask; a volume not there yet is left to that create.
     */
    void lookUp() {
        if (source != null) {
            return;
        }
        String mountpoint;
        try {
            mountpoint = clients.control().inspectVolumeCmd(VOLUME).exec().getMountpoint();
        } catch (NotFoundException e) {
            return;
        } catch (RuntimeException e) {
            throw ContainerException.from("inspect volume " + VOLUME, e);
        }
        synchronized (this) {
            if (source == null) {
                source = mountpoint + "/" + FILE;
            }
        }
    }

    /** The file's writes so far: a create that finds it missing passes what it saw before it tried. */
    synchronized long writes() {
        return writes;
    }

    /** Whether a create failed because the file the mount names is not on the engine's host. */
    static boolean missing(RuntimeException e) {
        return e instanceof BadRequestException
                && String.valueOf(e.getMessage()).contains("bind source path does not exist");
    }

    /**
     * Writes the file, unless it was written since {@code seen} (another create
     * found it missing first), through a helper container of {@code image}.
     */
    synchronized void write(String image, Map<String, String> labels, long seen) {
        if (writes != seen) {
            return;
        }
        source = volumePath(); // a pruned volume comes back under the same path
        String helper = createHelper(image, labels);
        try {
            ArchiveUpload.put(clients, helper, HELPER_TARGET, fileTar(), "write /etc/hosts");
        } finally {
            try {
                remove.accept(helper);
            } catch (ContainerException gone) {
                // the reaper finds it by its labels
            }
        }
        writes++;
    }

    private String volumePath() {
        try {
            String mountpoint =
                    clients.control().createVolumeCmd().withName(VOLUME).exec().getMountpoint();
            return mountpoint + "/" + FILE;
        } catch (RuntimeException e) {
            throw ContainerException.from("create volume " + VOLUME, e);
        }
    }

    private String createHelper(String image, Map<String, String> labels) {
        Map<String, String> helperLabels = new HashMap<>(labels);
        helperLabels.put(Labels.DISPATCH_ID, "etc-hosts-" + UUID.randomUUID());
        try {
            return clients.changes()
                    .call(
                            "create",
                            clients.control()
                                    .createContainerCmd(image)
                                    .withCmd("true") // never started
                                    .withLabels(helperLabels)
                                    .withNetworkDisabled(true)
                                    .withHostConfig(HostConfig.newHostConfig()
                                            .withNetworkMode("none")
                                            .withMounts(List.of(new Mount()
                                                    .withType(MountType.VOLUME)
                                                    .withSource(VOLUME)
                                                    .withTarget(HELPER_TARGET))))::exec)
                    .getId();
        } catch (RuntimeException e) {
            throw ContainerException.from("create the /etc/hosts helper", e);
        }
    }

    private static byte[] fileTar() {
        TarArchiveEntry entry = new TarArchiveEntry(FILE);
        entry.setMode(TarArchiveEntry.DEFAULT_FILE_MODE & ~0777 | 0644);
        entry.setSize(CONTENT.length);
        return ArchiveUpload.of(entry, CONTENT);
    }
}
