package dev.sluice.container.sandbox;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

import com.github.dockerjava.api.model.HostConfig;

import dev.sluice.container.engine.ContainerException;
import dev.sluice.container.engine.ContainerPaths;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.engine.OutFile;

/**
 * The uid an image's /etc/passwd gives a user's name (ADR 0055), read without
 * running anything the image supplies: through a container of the image that
 * is never started, by the engine's archive call (within the call deadline,
 * at most {@link #MAX_BYTES}, a link never followed), then removed. The
 * image's volumes are tmpfs in it as in a dispatch's container, so the create
 * copies nothing of the image into a volume. The helper is labelled as a
 * dispatch without a record, so the reaper removes it should the worker stop
 * first. Answers are kept per image id and name, except when the engine did
 * not answer: an image id names the same bytes for good.
 */
public final class ImagePasswd {

    static final String PATH = "/etc/passwd";
    /** Thousands of users' lines; a passwd larger than this is not read, and its names settle nothing. */
    static final int MAX_BYTES = 256 * 1024;
    /** Label value prefix of the helper's dispatch id. */
    public static final String HELPER = "passwd-";

    private static final Logger LOG = Logger.getLogger(ImagePasswd.class);
    private static final int CACHED = 512;

    private final DockerClients clients;
    private final Consumer<String> remove;
    private final Map<String, OptionalLong> answers = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, OptionalLong> eldest) {
            return size() > CACHED;
        }
    };

    /** @param remove how containers are removed, so the helper goes the way every container does */
    public ImagePasswd(DockerClients clients, Consumer<String> remove) {
        this.clients = clients;
        this.remove = remove;
    }

    /**
     * The uid of {@code name} in image {@code imageId}; empty when the image
     * does not list it or its passwd cannot be read (missing, a link, too
     * large, the engine failing).
     *
     * @param labels labels of the dispatch the helper is made for (its worker and store)
     * @param tmpfs  the tmpfs mounts a dispatch's container of the image gets
     */
    public OptionalLong uid(String imageId, String name, Map<String, String> labels, Map<String, String> tmpfs) {
        String key = imageId + '\n' + name;
        synchronized (answers) {
            OptionalLong known = answers.get(key);
            if (known != null) {
                return known;
            }
        }
        OutFile passwd = read(imageId, labels, tmpfs);
        OptionalLong uid =
                passwd.state() == OutFile.State.FOUND ? new PasswdFile(passwd.bytes()).uid(name) : OptionalLong.empty();
        if (passwd.state() != OutFile.State.UNREADABLE) {
            synchronized (answers) {
                answers.put(key, uid);
            }
        }
        if (passwd.state() == OutFile.State.REFUSED || passwd.state() == OutFile.State.UNREADABLE) {
            LOG.warnf(
                    "image %s: the user %s could not be looked up (%s); its containers run as the configured user",
                    imageId, name, passwd.problem());
        }
        return uid;
    }

    private OutFile read(String imageId, Map<String, String> labels, Map<String, String> tmpfs) {
        String helper;
        try {
            helper = create(imageId, labels, tmpfs);
        } catch (ContainerException e) {
            return OutFile.unreadable(e.getMessage());
        }
        try {
            return ContainerPaths.read(clients, helper, PATH, PATH, MAX_BYTES);
        } finally {
            try {
                remove.accept(helper);
            } catch (ContainerException gone) {
                // the reaper finds it by its labels
            }
        }
    }

    private String create(String imageId, Map<String, String> labels, Map<String, String> tmpfs) {
        Map<String, String> helperLabels = new HashMap<>(labels);
        helperLabels.put(Labels.DISPATCH_ID, HELPER + UUID.randomUUID());
        try {
            return clients.changes()
                    .call(
                            "create",
                            clients.control()
                                    .createContainerCmd(imageId)
                                    .withEntrypoint(List.of("/never-started"))
                                    .withCmd(List.of())
                                    .withLabels(helperLabels)
                                    .withNetworkDisabled(true)
                                    .withHostConfig(HostConfig.newHostConfig()
                                            .withNetworkMode("none")
                                            .withReadonlyRootfs(true)
                                            .withTmpFs(tmpfs))::exec)
                    .getId();
        } catch (RuntimeException e) {
            throw ContainerException.from("create the reader of " + PATH, e);
        }
    }
}
