package dev.sluice.container.engine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * Entries put into a created container through the engine's archive call,
 * within the call deadline: how the out-directory gets its directory (and the
 * witness beside it), the hosts file's volume its file, and a work area its workspace. The engine unpacks it with a re-executed
 * process of its own (about 35 ms here), whatever the archive's size.
 */
public final class ArchiveUpload {

    private ArchiveUpload() {}

    /** One entry of an archive: its header and its data. */
    public record Entry(TarArchiveEntry header, byte[] data) {}

    /** A tar archive of one entry and its data, as the engine takes and gives them. */
    public static byte[] of(TarArchiveEntry entry, byte[] data) {
        return of(List.of(new Entry(entry, data)));
    }

    /** A tar archive of these entries, in order. */
    public static byte[] of(List<Entry> entries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(
                2048 + entries.stream().mapToInt(e -> 512 + e.data().length).sum());
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            for (Entry entry : entries) {
                tar.putArchiveEntry(entry.header());
                tar.write(entry.data());
                tar.closeArchiveEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // writing to memory
        }
        return out.toByteArray();
    }

    /** Unpacks {@code tar} into the directory {@code dir} of the container; a failure is named {@code call}. */
    public static void put(DockerClients clients, String containerId, String dir, byte[] tar, String call) {
        put(clients, containerId, dir, new ByteArrayInputStream(tar), call);
    }

    /** Unpacks the tar read from {@code tar} into the directory {@code dir} of the container. */
    public static void put(DockerClients clients, String containerId, String dir, InputStream tar, String call) {
        try {
            clients.control()
                    .copyArchiveToContainerCmd(containerId)
                    .withRemotePath(dir)
                    .withTarInputStream(tar)
                    .exec();
        } catch (RuntimeException e) {
            throw ContainerException.from(call, e);
        }
    }
}
