package dev.sluice.image;

import java.util.Optional;

import com.github.dockerjava.api.command.RemoveImageCmd;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;

import dev.sluice.container.engine.ContainerException;
import dev.sluice.container.engine.DockerClients;

/**
 * The engine's images as the collector of unused ones sees them (ADR 0062):
 * which engine this is, which image a reference names, and the removal of a
 * reference, never forced. Every call is a control call, so it ends within
 * {@code sluice.docker.call-timeout}; a removal waits its turn among the
 * engine changes as a container's does.
 */
final class EngineImages {

    /** What the engine did with a removal. */
    public enum Removal {
        /** The reference is gone: untagged, and the image deleted if nothing else named it. */
        REMOVED,
        /** The engine refused: a container, running or stopped, still uses the image. */
        IN_USE,
        /** The engine held no image by that reference. */
        GONE
    }

    private final DockerClients clients;
    /** The engine's identity, once it answered: it never changes while the worker talks to the same engine. */
    private volatile String identity;

    public EngineImages(DockerClients clients) {
        this.clients = clients;
    }

    /**
     * The engine's own identity ({@code ID} of {@code docker info}): every
     * worker on this engine reads the same, whatever its worker id. Asked once,
     * then remembered.
     *
     * @throws ContainerException when the engine does not answer
     */
    public String identity() {
        String known = identity;
        if (known != null) {
            return known;
        }
        String id;
        try {
            id = clients.control().infoCmd().exec().getId();
        } catch (RuntimeException e) {
            throw ContainerException.from("info", e);
        }
        if (id == null || id.isBlank()) {
            throw new ContainerException(ContainerException.Reason.ENGINE_ERROR, "info: the engine gave no ID");
        }
        identity = id;
        return id;
    }

    /** The id of the image {@code reference} names now; empty when the engine holds none by it. */
    public Optional<String> imageId(String reference) {
        try {
            return Optional.ofNullable(
                    clients.control().inspectImageCmd(reference).exec().getId());
        } catch (NotFoundException e) {
            return Optional.empty();
        } catch (RuntimeException e) {
            throw ContainerException.from("inspect image", e);
        }
    }

    /**
     * Removes the reference, never with force: the engine untags it, and deletes
     * the image only when no other reference names it. It refuses while a
     * container uses an image this is the last reference of.
     */
    public Removal remove(String reference) {
        try {
            RemoveImageCmd remove =
                    clients.control().removeImageCmd(reference).withForce(false).withNoPrune(false);
            clients.changes().run("remove image", remove::exec);
            return Removal.REMOVED;
        } catch (NotFoundException e) {
            return Removal.GONE;
        } catch (ConflictException e) {
            return Removal.IN_USE;
        } catch (RuntimeException e) {
            throw ContainerException.from("remove image", e);
        }
    }
}
