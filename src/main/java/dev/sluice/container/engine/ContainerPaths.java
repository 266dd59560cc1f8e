package dev.sluice.container.engine;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import com.github.dockerjava.transport.DockerHttpClient;

/**
 * Paths of a container as the engine shows them through its archive call,
 * within the call deadline: the container need not run, and what its mounts
 * put at a path is what is shown, as its process would see it. A link at the
 * path itself is shown as the link, never followed.
 */
public final class ContainerPaths {

    /** The engine's stat of a path, in its {@code X-Docker-Container-Path-Stat} header. */
    private static final String STAT = "X-Docker-Container-Path-Stat";

    private ContainerPaths() {}

    /**
     * The regular file at {@code path}, if it is one of at most {@code maxBytes};
     * never more than that read. {@code name} is what messages call it.
     */
    public static OutFile read(DockerClients clients, String containerId, String path, String name, int maxBytes) {
        try (DockerHttpClient.Response response = clients.controlHttp().execute(archive(containerId, path))) {
            if (response.getStatusCode() == 404) {
                return OutFile.absent();
            }
            if (response.getStatusCode() != 200) {
                return OutFile.unreadable(ContainerException.fromStatus(
                                "archive", response.getStatusCode(), EngineHttpClient.readError(response))
                        .getMessage());
            }
            return TarEntryReader.read(response.getBody(), name, maxBytes);
        } catch (RuntimeException e) {
            return OutFile.unreadable(ContainerException.from("archive", e).getMessage());
        }
    }

    /**
     * The engine's stat of {@code path} (its name, size, mode, modification
     * time to the nanosecond and link target, as JSON), without its content;
     * {@code null} when the engine shows none (no such path, or a mount it
     * cannot make). Throws {@link ContainerException} when the engine does not
     * answer in time, or at all.
     */
    public static String stat(DockerClients clients, String containerId, String path) {
        EngineSocket.Head head;
        try {
            head = clients.controlHttp().head(archivePath(containerId, path));
        } catch (RuntimeException e) {
            throw ContainerException.from("stat " + path, e);
        }
        String stat = head.header(STAT);
        if (head.status() != 200 || stat == null) {
            return null;
        }
        try {
            return new String(Base64.getDecoder().decode(stat.strip()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The engine's archive of {@code path}: the path itself, a link never followed. */
    public static DockerHttpClient.Request archive(String containerId, String path) {
        return DockerHttpClient.Request.builder()
                .method(DockerHttpClient.Request.Method.GET)
                .path(archivePath(containerId, path))
                .build();
    }

    private static String archivePath(String containerId, String path) {
        return "/containers/" + containerId + "/archive?path=" + URLEncoder.encode(path, StandardCharsets.UTF_8);
    }
}
