package dev.sluice.container;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import com.github.dockerjava.transport.DockerHttpClient;

/**
 * One attach to a created container. It must be opened before the container
 * starts: output written before the attach is established is not sent to it.
 * It reads the multiplexed stream in large blocks straight into a
 * {@link FrameDemuxer}, with no object per frame (ADR 0004). When
 * {@code stdin} is given, the engine receives it and then end-of-file.
 */
public final class Attachment implements AutoCloseable {

    private static final int READ_BLOCK = 64 * 1024;

    private final DockerHttpClient.Response response;

    private Attachment(DockerHttpClient.Response response) {
        this.response = response;
    }

    /** Opens the attach and returns once the engine has established it. */
    static Attachment open(DockerHttpClient http, String containerId, byte[] stdin) {
        String path = "/containers/" + containerId + "/attach?stream=1&stdout=1&stderr=1" + (stdin != null ? "&stdin=1" : "");
        DockerHttpClient.Request.Builder request = DockerHttpClient.Request.builder()
                .method(DockerHttpClient.Request.Method.POST)
                .path(path);
        if (stdin != null) {
            request.hijackedInput(new ByteArrayInputStream(stdin));
        }
        DockerHttpClient.Response response;
        try {
            response = http.execute(request.build());
        } catch (RuntimeException e) {
            throw ContainerException.from("attach", e);
        }
        int status = response.getStatusCode();
        if (status != 200 && status != 101) {
            String body = readError(response);
            response.close();
            throw ContainerException.fromStatus("attach", status, body);
        }
        return new Attachment(response);
    }

    /**
     * Reads until the engine closes the stream. A stream cut by the engine
     * (restart, network) also ends without error, so the caller checks the
     * exit status and {@link StreamEnd#atFrameBoundary()} too.
     */
    public StreamEnd pump(OutputSink sink) {
        FrameDemuxer demuxer = new FrameDemuxer(sink);
        byte[] block = new byte[READ_BLOCK];
        long bytes = 0;
        try (InputStream body = response.getBody()) {
            int n;
            while ((n = body.read(block, 0, block.length)) >= 0) {
                bytes += n;
                demuxer.feed(block, 0, n);
            }
            return new StreamEnd(bytes, demuxer.atFrameBoundary(), demuxer.engineError(), null);
        } catch (IOException | RuntimeException e) {
            return new StreamEnd(bytes, demuxer.atFrameBoundary(), demuxer.engineError(),
                    e.getMessage() == null ? "read failed" : e.getMessage());
        }
    }

    private static String readError(DockerHttpClient.Response response) {
        try (InputStream body = response.getBody()) {
            return new String(body.readNBytes(2048), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** Ends the attach early, for a dispatch that is being abandoned; the reader's pump then returns. */
    @Override
    public void close() {
        response.close();
    }

    /**
     * How a stream ended.
     *
     * @param wireBytes       bytes received, frame headers included
     * @param atFrameBoundary false when the stream was cut inside a frame
     * @param engineError     what the engine reported on the stream, or empty
     * @param readFailure     the read error, or {@code null} when the engine closed the stream
     */
    public record StreamEnd(long wireBytes, boolean atFrameBoundary, String engineError, String readFailure) {

        public boolean clean() {
            return atFrameBoundary && readFailure == null && engineError.isEmpty();
        }
    }
}
