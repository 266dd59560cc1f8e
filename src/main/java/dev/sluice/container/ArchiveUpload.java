package dev.sluice.container;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * One entry put into a created container through the engine's archive call,
 * within the call deadline: how the out-directory gets its directory and the
 * hosts file's volume its file. The engine unpacks it with a re-executed
 * process of its own (about 35 ms here), whatever the archive's size.
 */
final class ArchiveUpload {

    private ArchiveUpload() {}

    /** A tar archive of one entry and its data, as the engine takes and gives them. */
    static byte[] of(TarArchiveEntry entry, byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(2048 + data.length);
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            tar.putArchiveEntry(entry);
            tar.write(data);
            tar.closeArchiveEntry();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // writing to memory
        }
        return out.toByteArray();
    }

    /** Unpacks {@code tar} into the directory {@code dir} of the container; a failure is named {@code call}. */
    static void put(DockerClients clients, String containerId, String dir, byte[] tar, String call) {
        try {
            clients.control()
                    .copyArchiveToContainerCmd(containerId)
                    .withRemotePath(dir)
                    .withTarInputStream(new ByteArrayInputStream(tar))
                    .exec();
        } catch (RuntimeException e) {
            throw ContainerException.from(call, e);
        }
    }
}
