package dev.sluice.container.stream;

import java.io.IOException;
import java.io.InputStream;
import java.util.function.BooleanSupplier;

import com.github.dockerjava.transport.DockerHttpClient;

/**
 * Reads a multiplexed engine stream (attach or logs) in large blocks into a
 * {@link FrameDemuxer}: one copy, into the sink, and no object per frame.
 */
public final class StreamPump {

    private static final int READ_BLOCK = 64 * 1024;

    private StreamPump() {}

    /** Reads until the engine closes the stream or {@code enough} says to stop. */
    public static Attachment.StreamEnd pump(
            DockerHttpClient.Response response, OutputSink sink, BooleanSupplier enough) {
        FrameDemuxer demuxer = new FrameDemuxer(sink);
        byte[] block = new byte[READ_BLOCK];
        long bytes = 0;
        try (InputStream body = response.getBody()) {
            int n;
            while (!enough.getAsBoolean() && (n = body.read(block, 0, block.length)) >= 0) {
                bytes += n;
                demuxer.feed(block, 0, n);
            }
            return new Attachment.StreamEnd(bytes, demuxer.atFrameBoundary(), demuxer.engineError(), null);
        } catch (IOException | RuntimeException e) {
            return new Attachment.StreamEnd(
                    bytes,
                    demuxer.atFrameBoundary(),
                    demuxer.engineError(),
                    e.getMessage() == null ? "read failed" : e.getMessage());
        }
    }
}
