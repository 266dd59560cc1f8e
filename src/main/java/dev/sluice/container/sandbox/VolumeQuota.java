package dev.sluice.container.sandbox;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.jboss.logging.Logger;

import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.model.Driver;

import dev.sluice.container.engine.ContainerException;
import dev.sluice.container.engine.DockerClients;

/**
 * Whether the engine bounds the out-directory's volume (ADR 0055): its
 * {@code local} driver takes a {@code size} only where the engine's volumes
 * lie on a filesystem with project quotas (xfs mounted with {@code pquota}),
 * and refuses a volume asking for one anywhere else. So the engine is asked
 * once, with a volume of its own that is removed at once, and the size is
 * given to the out-directory only where it was taken; elsewhere the volume
 * is unbounded and the worker says so once. An engine that does not answer
 * settles nothing: the create that asked fails as its own call would have,
 * within the call deadline, and the next create asks again. Podman is not
 * asked: it takes the size at create anywhere and fails every mount of the
 * volume where it cannot keep it (ADR 0078).
 */
public final class VolumeQuota {

    private static final Logger LOG = Logger.getLogger(VolumeQuota.class);
    static final String SIZE = "size";

    private final DockerClients clients;
    private final long size;
    private volatile Boolean bounded;

    /** @param size the bound asked for; 0 asks for none */
    public VolumeQuota(DockerClients clients, long size) {
        this.clients = clients;
        this.size = size;
        this.bounded = size > 0 ? null : Boolean.FALSE;
    }

    /** The driver and its size for the out-directory's volume, when the engine bounds it. */
    public Optional<Driver> driver() {
        Boolean known = bounded;
        if (known == null) {
            known = probe();
        }
        return known
                ? Optional.of(new Driver().withName("local").withOptions(Map.of(SIZE, Long.toString(size))))
                : Optional.empty();
    }

    private synchronized boolean probe() {
        if (bounded != null) {
            return bounded;
        }
        if (clients.identity().podman()) {
            // Podman takes a size at create on any filesystem and fails the mount of every container later
            // ("wrong fs type, bad option"): a create proves nothing there (ADR 0078).
            LOG.warnf("the out-directory's volume is not bounded: the engine is Podman, whose volume size the worker"
                    + " does not ask for (ADR 0078); see docs/operations.md, \"Disk\"");
            bounded = false;
            return false;
        }
        String name = "sluice-quota-probe-" + UUID.randomUUID();
        try {
            clients.changes()
                    .call(
                            "create volume",
                            clients.control()
                                    .createVolumeCmd()
                                    .withName(name)
                                    .withDriver("local")
                                    .withDriverOpts(Map.of(SIZE, Long.toString(size)))
                                    .withLabels(Map.of(Labels.PREFIX + "probe", "volume-quota"))::exec);
        } catch (DockerException e) {
            if (e.getHttpStatus() >= 500 && !String.valueOf(e.getMessage()).contains("quota")) {
                throw ContainerException.from("create volume", e); // the engine failing: asked again next time
            }
            LOG.warnf(
                    "the out-directory's volume is not bounded: the engine refused a volume of %d bytes (%s);"
                            + " see docs/operations.md, \"Disk\"",
                    size, String.valueOf(e.getMessage()).strip());
            bounded = false;
            return false;
        } catch (RuntimeException e) {
            throw ContainerException.from("create volume", e);
        }
        try {
            clients.control().removeVolumeCmd(name).exec();
        } catch (RuntimeException e) {
            LOG.warnf(
                    "the volume %s, made to learn whether the engine bounds volumes, is left: %s",
                    name, e.getMessage());
        }
        LOG.infof("the out-directory's volume is bounded to %d bytes by the engine's quota", size);
        bounded = true;
        return true;
    }
}
