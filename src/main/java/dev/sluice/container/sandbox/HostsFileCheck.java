package dev.sluice.container.sandbox;

import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import dev.sluice.container.engine.ContainerException;
import dev.sluice.container.engine.ContainerPaths;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.engine.OutFile;

/**
 * Checks a created container's /etc/hosts before it starts (ADR 0047): the
 * engine binds the {@link HostsFile} from a path on its own host and follows
 * a link there, so what the container would get is looked at through the
 * container itself. The engine's stat of it (name, size, mode, modification
 * time to the nanosecond) must be one whose bytes the worker has read and
 * found to be its file; that costs a stat, a few milliseconds. Another stat
 * means another file: its bytes are read (the engine's archive, a few hundred
 * milliseconds here); if they are wrong, the file is written again and read
 * once more; if they are still wrong, the check fails and the container must
 * never start. A burst of creates at start shares the first read: the others
 * wait for it, then look again. No lock is held across a call to the engine.
 */
public final class HostsFileCheck {

    private final DockerClients clients;
    private final HostsFile file;
    /** The engine's stat of the file whose bytes were last read and found right. */
    private volatile String known;

    private final AtomicReference<CompletableFuture<Void>> reading = new AtomicReference<>();

    public HostsFileCheck(DockerClients clients, HostsFile file) {
        this.clients = clients;
        this.file = file;
    }

    /**
     * Makes sure the created, never started container {@code containerId} gets
     * the worker's file at /etc/hosts, writing it again if it does not; throws
     * {@link ContainerException} when it cannot, and the container must then
     * not start.
     *
     * @param labels the container's, for a writer the check may need
     */
    public void check(String containerId, Map<String, String> labels) {
        if (isKnown(containerId)) {
            return;
        }
        CompletableFuture<Void> mine = new CompletableFuture<>();
        CompletableFuture<Void> theirs = reading.compareAndExchange(null, mine);
        if (theirs != null) {
            // Another create's check is under way (a burst at start): its outcome is likely this one's.
            HostsFile.await(theirs, "another create's check of " + HostsFile.TARGET, clients.callTimeout());
            if (!isKnown(containerId)) {
                settle(containerId, labels);
            }
            return;
        }
        try {
            settle(containerId, labels);
        } finally {
            reading.compareAndSet(mine, null);
            mine.complete(null); // a failed check fails its own create only: the others look for themselves
        }
    }

    /** Reads what the container gets; if wrong, writes the file again and reads once more. */
    private void settle(String containerId, Map<String, String> labels) {
        long before = file.writes();
        String problem = verify(containerId);
        if (problem == null) {
            return;
        }
        file.write(before, labels);
        problem = verify(containerId);
        if (problem != null) {
            throw wrong(problem);
        }
    }

    private boolean isKnown(String containerId) {
        String seen = ContainerPaths.stat(clients, containerId, HostsFile.TARGET);
        return seen != null && seen.equals(known);
    }

    /**
     * Reads the container's /etc/hosts and takes its stat as the file's when
     * the bytes are right and the stat did not change around the read; else
     * says what was wrong.
     */
    private String verify(String containerId) {
        String before = ContainerPaths.stat(clients, containerId, HostsFile.TARGET);
        OutFile read =
                ContainerPaths.read(clients, containerId, HostsFile.TARGET, HostsFile.TARGET, HostsFile.CONTENT.length);
        if (read.state() != OutFile.State.FOUND) {
            return read.state() == OutFile.State.ABSENT ? "it is absent" : read.problem();
        }
        if (!Arrays.equals(read.bytes(), HostsFile.CONTENT)) {
            return "its bytes are not the worker's"; // never shown: they may be a file of the engine's host
        }
        String after = ContainerPaths.stat(clients, containerId, HostsFile.TARGET);
        if (before == null || !Objects.equals(before, after)) {
            return "its stat changed while it was read";
        }
        known = after;
        return null;
    }

    private ContainerException wrong(String problem) {
        return new ContainerException(
                ContainerException.Reason.ENGINE_ERROR,
                HostsFile.TARGET + " of a bare network namespace is not the worker's file on the volume "
                        + file.volume()
                        + " (" + problem + ") even after it was written again; the container was not started."
                        + " Remove the volume, or set sluice.container.none-network=docker (ADR 0047)");
    }
}
