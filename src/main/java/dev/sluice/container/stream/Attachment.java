package dev.sluice.container.stream;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.LockSupport;

import org.jboss.logging.Logger;

import dev.sluice.concurrent.LogScope;
import dev.sluice.container.engine.ContainerException;
import dev.sluice.container.engine.EngineHttpClient;
import dev.sluice.container.engine.EngineSocket;

/**
 * One attach to a created container, over its own {@link EngineSocket}. It
 * must be opened before the container starts: output written before the
 * attach is established is not sent to it. It reads the multiplexed stream in
 * blocks on a thread of its own, which only reads, and feeds them to a
 * {@link FrameDemuxer} on the pump's, with no object per frame (ADR 0045); it
 * writes the dispatch's input to stdin, then half-closes so the process sees
 * end-of-file (ADR 0012).
 *
 * <p>Reading costs a system call per read, and a reader that keeps up with a
 * process printing lines would make one per line. So after a short read the
 * reader pauses {@link #COALESCE_PAUSE_NANOS} and lets output gather in the
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

    /** Blocks read ahead of the sink at most: half a MiB a stream, at the largest block. */
    private static final int BLOCKS_IN_FLIGHT = 8;

    private final EngineSocket socket;
    private final ByteBuffer buffer;
    private final byte[] stdin;
    private final Executor threads;

    private Attachment(EngineSocket socket, ByteBuffer buffer, byte[] stdin, Executor threads) {
        this.socket = socket;
        this.buffer = buffer;
        this.stdin = stdin;
        this.threads = threads;
    }

    /** Opens the attach and returns once the engine has established it, within the engine's call timeout. */
    /**
     * @param threads runs the attach's reader, and its stdin writer when there is input: two threads at most,
     *                for as long as the stream lasts
     */
    public static Attachment open(EngineHttpClient engine, String containerId, byte[] stdin, Executor threads) {
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
        return new Attachment(upgrade.socket(), buffer, stdin, threads);
    }

    /**
     * Writes the input (if any) and reads until the engine closes the stream.
     * A stream cut by the engine (restart, network) also ends without error,
     * so the caller checks the exit status and {@link StreamEnd#atFrameBoundary()} too.
     *
     * <p>The socket is read on a thread of its own, which hands blocks to this
     * one through a {@link BlockHandoff}: the engine's copy never waits on the
     * sink's work, only on a sink behind by every block (ADR 0045).
     */
    public StreamEnd pump(OutputSink sink) {
        if (stdin != null) {
            threads.execute(LogScope.carried(this::writeStdin));
        }
        BlockHandoff handoff = new BlockHandoff(BLOCKS_IN_FLIGHT);
        FrameDemuxer demuxer = new FrameDemuxer(sink);
        // What arrived with the answer's head is already output.
        long bytes = buffer.remaining();
        demuxer.feed(buffer.array(), buffer.position(), buffer.remaining());
        threads.execute(LogScope.carried(() -> read(handoff)));
        try {
            BlockHandoff.Block block;
            while ((block = handoff.next()) != null) {
                bytes += block.length();
                demuxer.feed(block.buffer().array(), 0, block.length());
                handoff.done(block);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new StreamEnd(bytes, demuxer.atFrameBoundary(), demuxer.engineError(), "interrupted");
        } finally {
            handoff.abandon();
        }
        return new StreamEnd(bytes, demuxer.atFrameBoundary(), demuxer.engineError(), handoff.failure());
    }

    /**
     * The reading thread: reads blocks until the engine closes the stream, the
     * read fails, or the sink has gone; whatever ends it, the pump is told. An
     * interrupt is the worker shutting down (its pool is stopped): then the
     * pump is left waiting, as a read on its own thread would be, so the
     * dispatch is left to reconciliation rather than finished from a stream
     * that merely stopped being read.
     */
    private void read(BlockHandoff handoff) {
        String failure = null;
        try {
            int size = FIRST_READ_BLOCK;
            ByteBuffer block;
            while ((block = handoff.empty(size)) != null) {
                int n = socket.read(block);
                if (n < 0 || !handoff.hand(block, n)) {
                    break;
                }
                if (n == block.capacity() && size < MAX_READ_BLOCK) {
                    size = MAX_READ_BLOCK;
                } else if (n < SHORT_READ) {
                    LockSupport.parkNanos(COALESCE_PAUSE_NANOS);
                }
            }
        } catch (InterruptedException | ClosedByInterruptException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (IOException | RuntimeException e) {
            failure = e.getMessage() == null ? "read failed" : e.getMessage();
        }
        handoff.end(failure);
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
