package dev.sluice.container.files;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;

import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import com.github.dockerjava.api.model.VolumeOptions;
import com.github.dockerjava.transport.DockerHttpClient;

import dev.sluice.container.engine.ArchiveUpload;
import dev.sluice.container.engine.ContainerException;
import dev.sluice.container.engine.ContainerPaths;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.engine.EngineHttpClient;
import dev.sluice.container.engine.OutFile;
import dev.sluice.container.sandbox.ContainerConfig;
import dev.sluice.container.sandbox.ContainerUser;
import dev.sluice.container.sandbox.VolumeQuota;
import dev.sluice.output.StreamWitness;

/**
 * The out-directory of dispatch containers (ADR 0022): where an agent leaves
 * what must outlive its process. A tmpfs would not (the engine empties it when
 * the container stops), so it is a directory on an anonymous volume of the
 * engine, mounted at its parent: created with the container, removed with it
 * (every removal passes {@code v=1}), labelled like it. The volume's root
 * belongs to root, so before the start the worker adds the out-directory
 * itself, writable by the container's user. After the exit, files are read
 * back through the engine's archive call, within the call deadline and a bound.
 * An operator may turn it off (ADR 0041): then there is no volume, nothing to
 * add, and every file is absent without a call.
 */
public final class OutDirectory {

    /** A record is one short line of JSON. */
    private static final int WITNESS_RECORD_MAX = 4096;

    private final DockerClients clients;
    private final String path;
    private final String parent;
    private final String name;
    private final boolean enabled;
    private final Witness witness;
    private final VolumeQuota quota;

    public OutDirectory(DockerClients clients, ContainerConfig config) {
        this(clients, config.outDir(), config.outDirEnabled(), config);
    }

    private OutDirectory(DockerClients clients, String path, boolean enabled, ContainerConfig config) {
        int slash = path.lastIndexOf('/');
        if (!path.startsWith("/") || slash <= 0 || slash == path.length() - 1) {
            throw new IllegalArgumentException(
                    "sluice.container.out-dir must be an absolute path below a directory other than /, such as /sluice/out");
        }
        this.clients = clients;
        this.path = path;
        this.parent = path.substring(0, slash);
        this.name = path.substring(slash + 1);
        this.enabled = enabled;
        this.witness = Witness.of(config, parent);
        this.quota = new VolumeQuota(clients, enabled ? config.outDirSize().asLongValue() : 0);
    }

    /** The witness its containers run under, or why they run without one. */
    public Witness witness() {
        return witness;
    }

    /** Where its volume is mounted; {@code null} when off. */
    public String volumeTarget() {
        return enabled ? parent : null;
    }

    /**
     * The volume, mounted at the out-directory's parent and labelled as the
     * container is, of {@code out-dir-size} where the engine bounds volumes
     * (ADR 0055); none when off.
     */
    public List<Mount> mounts(Map<String, String> labels) {
        if (!enabled) {
            return List.of();
        }
        return List.of(
                new Mount().withType(MountType.VOLUME).withTarget(parent).withVolumeOptions(volumeOptions(labels)));
    }

    /**
     * A volume labelled as the container is, of {@code out-dir-size} where
     * the engine bounds volumes: the out-directory's, and a workspace's work
     * area (ADR 0060).
     */
    VolumeOptions volumeOptions(Map<String, String> labels) {
        VolumeOptions options = new VolumeOptions().withLabels(labels);
        quota.driver().ifPresent(options::withDriverConfig);
        return options;
    }

    /**
     * Adds the out-directory to a created container's volume: mode 1777, owned
     * by the container's user when it is known, as the tmpfs areas are; and the
     * witness program beside it and its key, in the same upload (ADRs 0045,
     * 0070). {@code key} is null for a container created without one.
     */
    public void prepare(String containerId, Optional<ContainerUser.RunAs> user, WitnessKey key) {
        if (!enabled) {
            return;
        }
        ArchiveUpload.put(clients, containerId, parent, directoryTar(user, key), "prepare " + path);
    }

    private byte[] directoryTar(Optional<ContainerUser.RunAs> user, WitnessKey key) {
        TarArchiveEntry dir = new TarArchiveEntry(name + "/");
        dir.setMode(TarArchiveEntry.DEFAULT_DIR_MODE & ~0777 | 01777);
        user.ifPresent(u -> {
            dir.setUserId(u.uid());
            dir.setGroupId(u.gid());
        });
        List<ArchiveUpload.Entry> entries = new ArrayList<>(4);
        entries.add(new ArchiveUpload.Entry(dir, new byte[0]));
        if (witness.on()) {
            entries.addAll(witness.entries(name, key, user));
        }
        return ArchiveUpload.of(entries);
    }

    /**
     * What the witness left of the container's run, read after its exit (ADRs
     * 0045, 0070): believed only when {@code key}, the container's, authenticates it.
     */
    public WitnessRecord witnessRecord(String containerId, Optional<WitnessKey> key) {
        if (!witness.on()) {
            return WitnessRecord.unusable(StreamWitness.OFF, witness.off());
        }
        OutFile file = read(containerId, Witness.recordFile(), WITNESS_RECORD_MAX);
        return switch (file.state()) {
            case FOUND -> WitnessRecord.read(file.bytes(), key);
            case ABSENT -> WitnessRecord.unusable(StreamWitness.MISSING, "the witness left no record");
            case REFUSED ->
                WitnessRecord.unusable(
                        StreamWitness.UNREADABLE,
                        "the witness's record is not a regular file of at most " + WITNESS_RECORD_MAX + " bytes");
            case UNREADABLE ->
                WitnessRecord.unusable(
                        StreamWitness.UNREADABLE, "the engine did not give the witness's record: " + file.problem());
        };
    }

    /** The witness's copy of a stream's last bytes, at most {@link Witness#TAIL_BYTES}. */
    public OutFile witnessTail(String containerId, boolean stdout) {
        return read(containerId, Witness.tailFile(stdout), Witness.TAIL_BYTES);
    }

    /** The regular file {@code file} of the out-directory, if it is one of at most {@code maxBytes}. */
    public OutFile read(String containerId, String file, int maxBytes) {
        if (!enabled) {
            return OutFile.absent();
        }
        return ContainerPaths.read(clients, containerId, path + "/" + file, file, maxBytes);
    }

    /**
     * Walks the directory {@code dir} of the out-directory through the
     * engine's archive of it, reading at most {@code limit} bytes, within the
     * call deadline (ADR 0029). A missing directory is a complete, empty walk.
     */
    public OutArchive.End walk(String containerId, String dir, long limit, OutArchive.Visitor visitor) {
        if (!enabled) {
            return OutArchive.End.COMPLETE;
        }
        try (DockerHttpClient.Response response =
                clients.controlHttp().execute(ContainerPaths.archive(containerId, path + "/" + dir))) {
            if (response.getStatusCode() == 404) {
                return OutArchive.End.COMPLETE;
            }
            if (response.getStatusCode() != 200) {
                return OutArchive.End.cut(ContainerException.fromStatus(
                                "archive", response.getStatusCode(), EngineHttpClient.readError(response))
                        .getMessage());
            }
            return OutArchive.walk(response.getBody(), dir, limit, visitor);
        } catch (RuntimeException e) {
            return OutArchive.End.cut(ContainerException.from("archive", e).getMessage());
        }
    }
}
