package dev.sluice.container.sandbox;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.github.dockerjava.api.exception.BadRequestException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;

import dev.sluice.container.engine.ContainerException;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.engine.EngineTimeoutException;

/**
 * The /etc/hosts of containers in a bare network namespace (ADRs 0043, 0047),
 * which the engine leaves empty. One file, with the lines the engine writes
 * for its own {@code none} network, lives on a named volume of the engine;
 * containers get it bind-mounted read-only from the volume's path on the
 * engine's host, which the engine resolves (the worker never touches that
 * path itself). The engine follows a link there on its own host, so every
 * container's is checked before it starts ({@link HostsFileCheck}).
 *
 * <p>The file is written ({@link HostsFileWriter}) when a create fails because
 * it is missing (a fresh engine, a pruned volume), or when a check finds it
 * wrong. Creates that need a write at once share one: the first makes it, the
 * others wait for it (at most {@link #ROUND_CALLS} call deadlines). No lock
 * is held across a call to the engine.
 */
public final class HostsFile {

    /** The named volume that holds the file. */
    public static final String VOLUME = "sluice-etc-hosts";

    /** What the engine writes to /etc/hosts for its {@code none} network. */
    public static final byte[] CONTENT = ("127.0.0.1\tlocalhost\n"
                    + "::1\tlocalhost ip6-localhost ip6-loopback\n"
                    + "fe00::0\tip6-localnet\n"
                    + "ff00::0\tip6-mcastprefix\n"
                    + "ff02::1\tip6-allnodes\n"
                    + "ff02::2\tip6-allrouters\n")
            .getBytes(StandardCharsets.US_ASCII);

    /** Where containers get it. */
    public static final String TARGET = "/etc/hosts";

    /**
     * The most engine calls (or waits for a turn among the engine changes) a
     * check makes, each within the call deadline: a read (stat, archive,
     * stat), a write (the volume, the image's inspection, its import and
     * inspection again, a create and a removal with their turns, the upload)
     * and a read again. A caller waits for another's check or write that long
     * at most.
     */
    private static final int ROUND_CALLS = 15;

    private final DockerClients clients;
    private final String volume;
    private final HostsFileWriter writer;
    /** The file's path on the engine's host, once the volume is known. */
    private volatile String source;
    /** Guards {@link #writes} and {@link #writing}; never held across a call to the engine. */
    private final Object writeLock = new Object();

    private long writes;
    private CompletableFuture<Void> writing;

    /** @param volume the named volume of the file; {@link #VOLUME} but in tests that must not share it */
    public HostsFile(DockerClients clients, String volume, HostsFileWriter writer) {
        this.clients = clients;
        this.volume = volume;
        this.writer = writer;
    }

    /** The named volume of the file. */
    String volume() {
        return volume;
    }

    /** The read-only bind mount of the file at /etc/hosts; creates or finds the volume the first time. */
    public Mount mount() {
        String path = source;
        if (path == null) {
            path = volumePath(); // creates that race here are given the same volume
            source = path;
        }
        return new Mount()
                .withType(MountType.BIND)
                .withSource(path)
                .withTarget(TARGET)
                .withReadOnly(true);
    }

    /**
     * Finds the volume without creating it, for the warm-up, so that the first
     * create need not ask; a volume not there yet is left to that create.
     */
    public void lookUp() {
        if (source != null) {
            return;
        }
        try {
            String mountpoint =
                    clients.control().inspectVolumeCmd(volume).exec().getMountpoint();
            source = mountpoint + "/" + HostsFileWriter.FILE;
        } catch (NotFoundException e) {
            // left to the first create
        } catch (RuntimeException e) {
            throw ContainerException.from("inspect volume " + volume, e);
        }
    }

    /** The file's writes so far: a create that finds it missing passes what it saw before it tried. */
    public long writes() {
        synchronized (writeLock) {
            return writes;
        }
    }

    /** Whether a create failed because the file the mount names is not on the engine's host. */
    public static boolean missing(RuntimeException e) {
        return e instanceof BadRequestException
                && String.valueOf(e.getMessage()).contains("bind source path does not exist");
    }

    /**
     * Writes the file, unless it was written since {@code seen} (another create
     * found it missing or wrong first), or joins a write under way.
     */
    public void write(long seen, Map<String, String> labels) {
        CompletableFuture<Void> mine;
        CompletableFuture<Void> theirs;
        synchronized (writeLock) {
            if (writes != seen) {
                return;
            }
            theirs = writing;
            mine = theirs == null ? (writing = new CompletableFuture<>()) : null;
        }
        if (theirs != null) {
            await(theirs, "another create's write of " + TARGET, clients.callTimeout());
            return;
        }
        try {
            source = volumePath(); // a pruned volume comes back under the same path
            writer.write(volume, CONTENT, labels);
            synchronized (writeLock) {
                writes++;
                writing = null;
            }
            mine.complete(null);
        } catch (RuntimeException e) {
            synchronized (writeLock) {
                writing = null;
            }
            mine.completeExceptionally(e);
            throw e;
        }
    }

    /**
     * Waits for another caller's check or write of the file, at most
     * {@link #ROUND_CALLS} call deadlines; its failure is this caller's too.
     */
    static void await(CompletableFuture<Void> theirs, String what, Duration callTimeout) {
        Duration bound = callTimeout.multipliedBy(ROUND_CALLS);
        try {
            theirs.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof ContainerException ce
                    ? ce
                    : new ContainerException(ContainerException.Reason.ENGINE_ERROR, what + " failed: " + e.getCause());
        } catch (TimeoutException e) {
            throw new ContainerException(
                    ContainerException.Reason.ENGINE_UNAVAILABLE,
                    what + " did not end within " + EngineTimeoutException.readable(bound));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ContainerException(ContainerException.Reason.ENGINE_UNAVAILABLE, what + ": interrupted");
        }
    }

    private String volumePath() {
        try {
            String mountpoint =
                    clients.control().createVolumeCmd().withName(volume).exec().getMountpoint();
            return mountpoint + "/" + HostsFileWriter.FILE;
        } catch (RuntimeException e) {
            throw ContainerException.from("create volume " + volume, e);
        }
    }
}
