package dev.sluice.container.stream;

import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Blocks read from an engine stream, handed from the thread that reads them to
 * the thread that processes them, within a fixed number of blocks (ADR 0045).
 * The engine copies a container's output to its log and to attached readers
 * through one writer: a reader that waits on its own processing (masking,
 * hashing, collecting, a busy core) holds up that copy, and what the copy has
 * not taken when the process exits is lost. So the reader only reads; it waits
 * only when every block is full and unprocessed, which bounds the memory a
 * stream takes however far processing falls behind.
 */
final class BlockHandoff {

    /** A block of the stream, {@code length} bytes of {@code buffer} from its start. */
    record Block(ByteBuffer buffer, int length) {}

    private static final Block END = new Block(ByteBuffer.allocate(0), -1);
    private static final long POLL_MILLIS = 100;

    private final int capacity;
    private final BlockingQueue<ByteBuffer> free;
    private final BlockingQueue<Block> filled;
    private int allocated;
    private volatile boolean abandoned;
    private volatile boolean ended;
    private volatile String failure;

    BlockHandoff(int capacity) {
        this.capacity = capacity;
        this.free = new ArrayBlockingQueue<>(capacity);
        this.filled = new ArrayBlockingQueue<>(capacity + 1);
    }

    /**
     * A block to read into: a free one, or a new one of {@code size} bytes
     * while fewer than the capacity exist (a free one smaller than that is
     * replaced); waits while all are in flight. {@code null} once the
     * processor has gone.
     */
    ByteBuffer empty(int size) throws InterruptedException {
        ByteBuffer buffer = free.poll();
        if (buffer == null && allocated < capacity) {
            allocated++;
            return ByteBuffer.allocate(size);
        }
        while (buffer == null) {
            if (abandoned) {
                return null;
            }
            buffer = free.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
        }
        if (buffer.capacity() < size) {
            return ByteBuffer.allocate(size);
        }
        buffer.clear();
        return buffer;
    }

    /**
     * Hands a block read to the processor; waits for room only if it is
     * behind by every block. False once the processor has gone.
     */
    boolean hand(ByteBuffer buffer, int length) throws InterruptedException {
        Block block = new Block(buffer, length);
        while (!filled.offer(block, POLL_MILLIS, TimeUnit.MILLISECONDS)) {
            if (abandoned) {
                return false;
            }
        }
        return true;
    }

    /**
     * The stream ended, cleanly ({@code failure} null) or not: after the last
     * block handed, never blocking, so the reader can always say it.
     */
    void end(String failure) {
        this.failure = failure;
        ended = true;
        filled.offer(END); // when full, the processor sees the end once it has taken the rest
    }

    /** The next block to process, or {@code null} at the end of the stream. */
    Block next() throws InterruptedException {
        while (true) {
            Block block = filled.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
            if (block == END) {
                return null;
            }
            if (block != null) {
                return block;
            }
            if (ended && filled.isEmpty()) {
                return null;
            }
        }
    }

    /** Gives a processed block back for reading. */
    void done(Block block) {
        free.offer(block.buffer());
    }

    /** The processor will take no more blocks: the reader stops waiting and ends. */
    void abandon() {
        abandoned = true;
    }

    /** Why reading ended, or {@code null} when the engine closed the stream. */
    String failure() {
        return failure;
    }
}
