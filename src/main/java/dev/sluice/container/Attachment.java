package dev.sluice.container;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.LockSupport;

import org.jboss.logging.Logger;

import com.github.dockerjava.transport.DockerHttpClient;

import dev.sluice.concurrent.LogScope;

/**
 * One attach to a created container, over its own {@link EngineSocket}. It
 * must be opened before the container starts: output written before the
 * attach is established is not sent to it. It reads the multiplexed stream in
 * blocks straight into a {@link FrameDemuxer}, with no object per frame, and
 * writes the dispatch's input to stdin, then half-closes so the process sees
 * end-of-file (ADR 0012).
 *
 * <p>Reading costs a system call per read, and a reader that keeps up with a
 * process printing lines would make one per line. So after a short read the
 * pump pauses {@link #COALESCE_PAUSE_NANOS} and lets output gather in the
 * socket buffer: the result is only built at exit, so nobody waits on the
 * delay, while a flood (whose reads come back full) never pauses. The buffer
 * starts small and grows to {@link #MAX_READ_BLOCK} once a read fills it, so a
 * dispatch that prints little holds little.
 */
public final class Attachment implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Attachment.class);
    private static final int FIRST_READ_BLOCK = 4 * 1024;
    private static final int MAX_READ_BLOCK = 64 * 1024;
    /** A read shorter than this means the process writes slower than we read. */
    private static final int SHORT_READ = 16 * 1024;
    /** At most this much output gathers in the socket buffer meanwhile: 1 ms at 200 MB/s. */
    private static final long COALESCE_PAUSE_NANOS = 1_000_000;

    private final EngineSocket socket;
    private ByteBuffer buffer;
    private final byte[] stdin;
    private final Executor stdinWriter;

    private Attachment(EngineSocket socket, ByteBuffer buffer, byte[] stdin, Executor stdinWriter) {
        this.socket = socket;
        this.buffer = buffer;
        this.stdin = stdin;
        this.stdinWriter = stdinWriter;
    }

    /** Opens the attach and returns once the engine has established it, within the engine's call timeout. */
    static Attachment open(EngineHttpClient engine, String containerId, byte[] stdin, Executor stdinWriter) {
        String path =
                "/containers/" + containerId + "/attach?stream=1&stdout=1&stderr=1" + (stdin != null ? "&stdin=1" : "");
        ByteBuffer buffer = ByteBuffer.allocate(FIRST_READ_BLOCK);
        EngineHttpClient.Upgrade upgrade;
        try {
            upgrade = engine.upgrade("POST", path, buffer);
        } catch (RuntimeException e) {
            throw ContainerException.from("attach", e);
        }
        if (upgrade.socket() == null) {
            throw ContainerException.fromStatus("attach", upgrade.status(), upgrade.errorBody());
        }
        return new Attachment(upgrade.socket(), buffer, stdin, stdinWriter);
    }

    /**
     * Writes the input (if any) and reads until the engine closes the stream.
     * A stream cut by the engine (restart, network) also ends without error,
     * so the caller checks the exit status and {@link StreamEnd#atFrameBoundary()} too.
     */
    public StreamEnd pump(OutputSink sink) {
        if (stdin != null) {
            stdinWriter.execute(LogScope.carried(this::writeStdin));
        }
        FrameDemuxer demuxer = new FrameDemuxer(sink);
        long bytes = buffer.remaining();
        try {
            // What arrived with the answer's head is already output.
            demuxer.feed(buffer.array(), buffer.position(), buffer.remaining());
            buffer.clear();
            int n;
            while ((n = socket.read(buffer)) >= 0) {
                bytes += n;
                demuxer.feed(buffer.array(), 0, n);
                if (n == buffer.capacity() && n < MAX_READ_BLOCK) {
                    buffer = ByteBuffer.allocate(MAX_READ_BLOCK);
                } else if (n < SHORT_READ) {
                    LockSupport.parkNanos(COALESCE_PAUSE_NANOS);
                }
                buffer.clear();
            }
            return new StreamEnd(bytes, demuxer.atFrameBoundary(), demuxer.engineError(), null);
        } catch (IOException e) {
            return new StreamEnd(
                    bytes,
                    demuxer.atFrameBoundary(),
                    demuxer.engineError(),
                    e.getMessage() == null ? "read failed" : e.getMessage());
        }
    }

    private void writeStdin() {
        try {
            socket.write(ByteBuffer.wrap(stdin));
            socket.shutdownOutput();
        } catch (IOException e) {
            // The process exited without reading all of its input: nothing to deliver it to.
            LOG.debugf("stdin not fully written: %s", e.getMessage());
        }
    }

    static String readError(DockerHttpClient.Response response) {
        try (InputStream body = response.getBody()) {
            return new String(body.readNBytes(2048), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** Ends the attach early, for a dispatch that is being abandoned; the reader's pump then returns. */
    @Override
    public void close() {
        socket.close();
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
