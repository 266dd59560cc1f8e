package dev.sluice.container.sandbox;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;

import com.github.dockerjava.api.command.InspectImageResponse;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import com.github.dockerjava.api.model.VolumeOptions;
import com.github.dockerjava.transport.DockerHttpClient;

import dev.sluice.container.engine.ArchiveUpload;
import dev.sluice.container.engine.ContainerException;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.engine.EngineHttpClient;
import dev.sluice.hashing.Sha256;

/**
 * Writes the hosts file into its volume (ADR 0047) through a container that is
 * never started, made from an image of the worker's own: one layer holding one
 * empty directory, imported from a tar the worker makes and known by that
 * layer's digest, so whatever else carries its name is not taken for it. A
 * dispatch's image never serves: a container of it, created against an empty
 * volume, would copy what the image holds at the mount path into the volume,
 * links included, and the engine follows a link in a bind source on its own
 * host. The volume is mounted without that copy ({@code NoCopy}) all the same,
 * and the root read-only, so the upload can land nowhere but in the volume.
 * The upload replaces whatever stands at the file's name, a link or a
 * directory included. The helper is labelled as a dispatch without a record,
 * so the reaper removes it should the worker stop before it does.
 */
public final class HostsFileWriter {

    static final String IMAGE_REPOSITORY = "sluice/etc-hosts-writer";
    static final String IMAGE_TAG = "1";
    public static final String IMAGE = IMAGE_REPOSITORY + ":" + IMAGE_TAG;
    /** Where the helper mounts the volume. */
    public static final String MOUNT = "/sluice-etc-hosts";
    /** The file's name in the volume. */
    static final String FILE = "hosts";

    /** The image's one layer: the mount's directory, with fixed owner and times, so its digest is fixed too. */
    private static final byte[] LAYER = layer();

    private static final String LAYER_DIGEST =
            "sha256:" + HexFormat.of().formatHex(Sha256.digest().digest(LAYER));

    /** The import's answer is a line or two of progress. */
    private static final int IMPORT_ANSWER_MAX = 64 * 1024;

    private final DockerClients clients;
    private final Consumer<String> remove;

    /** @param remove how containers are removed, so the helper goes the way every container does */
    public HostsFileWriter(DockerClients clients, Consumer<String> remove) {
        this.clients = clients;
        this.remove = remove;
    }

    /** Writes {@code content} as the file of {@code volume}, replacing whatever is there. */
    void write(String volume, byte[] content, Map<String, String> labels) {
        String helper = createHelper(image(), volume, labels);
        try {
            ArchiveUpload.put(clients, helper, MOUNT, fileTar(content), "write /etc/hosts");
        } finally {
            try {
                remove.accept(helper);
            } catch (ContainerException gone) {
                // the reaper finds it by its labels
            }
        }
    }

    /** The id of the writer's image, imported first when the engine has none of that name with its layer. */
    private String image() {
        String id = ours();
        if (id != null) {
            return id;
        }
        importImage();
        id = ours();
        if (id == null) {
            throw new ContainerException(
                    ContainerException.Reason.ENGINE_ERROR,
                    "import " + IMAGE + ": the engine holds another image under that name");
        }
        return id;
    }

    /**
     * Imports the layer as {@link #IMAGE}: through the transport itself, as
     * docker-java's import sends its stream as JSON. What the engine made of
     * it is judged by the inspection after.
     */
    private void importImage() {
        DockerHttpClient.Request request = DockerHttpClient.Request.builder()
                .method(DockerHttpClient.Request.Method.POST)
                .path("/images/create?fromSrc=-&repo=" + IMAGE_REPOSITORY + "&tag=" + IMAGE_TAG)
                .putHeader("Content-Type", "application/x-tar")
                .bodyBytes(LAYER)
                .build();
        try (DockerHttpClient.Response response = clients.controlHttp().execute(request)) {
            if (response.getStatusCode() != 200) {
                throw ContainerException.fromStatus(
                        "import " + IMAGE, response.getStatusCode(), EngineHttpClient.readError(response));
            }
            response.getBody().readNBytes(IMPORT_ANSWER_MAX); // its progress; an engine may end the import with it
        } catch (IOException e) {
            throw ContainerException.from("import " + IMAGE, new UncheckedIOException(e));
        } catch (RuntimeException e) {
            throw ContainerException.from("import " + IMAGE, e);
        }
    }

    /** The id of the image named {@link #IMAGE} if its one layer is the writer's; {@code null} if not. */
    private String ours() {
        InspectImageResponse image;
        try {
            image = clients.control().inspectImageCmd(IMAGE).exec();
        } catch (NotFoundException e) {
            return null;
        } catch (RuntimeException e) {
            throw ContainerException.from("inspect image " + IMAGE, e);
        }
        boolean ours = image.getRootFS() != null
                && List.of(LAYER_DIGEST).equals(image.getRootFS().getLayers());
        return ours ? image.getId() : null;
    }

    private String createHelper(String image, String volume, Map<String, String> labels) {
        Map<String, String> helperLabels = new HashMap<>(labels);
        helperLabels.put(Labels.DISPATCH_ID, "etc-hosts-" + UUID.randomUUID());
        try {
            return clients.changes()
                    .call(
                            "create",
                            clients.control()
                                    .createContainerCmd(image)
                                    .withCmd("/never-started")
                                    .withLabels(helperLabels)
                                    .withNetworkDisabled(true)
                                    .withHostConfig(HostConfig.newHostConfig()
                                            .withNetworkMode("none")
                                            .withReadonlyRootfs(true)
                                            .withMounts(List.of(new Mount()
                                                    .withType(MountType.VOLUME)
                                                    .withSource(volume)
                                                    .withTarget(MOUNT)
                                                    .withVolumeOptions(new VolumeOptions().withNoCopy(true)))))::exec)
                    .getId();
        } catch (RuntimeException e) {
            throw ContainerException.from("create the /etc/hosts writer", e);
        }
    }

    private static byte[] layer() {
        TarArchiveEntry dir = new TarArchiveEntry(MOUNT.substring(1) + "/");
        dir.setMode(TarArchiveEntry.DEFAULT_DIR_MODE & ~0777 | 0755);
        dir.setModTime(0);
        return ArchiveUpload.of(dir, new byte[0]);
    }

    private static byte[] fileTar(byte[] content) {
        TarArchiveEntry entry = new TarArchiveEntry(FILE);
        entry.setMode(TarArchiveEntry.DEFAULT_FILE_MODE & ~0777 | 0644);
        entry.setSize(content.length);
        return ArchiveUpload.of(entry, content);
    }
}
