package dev.sluice.events;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.sluice.container.stream.OutputSink;
import dev.sluice.output.SecretMasker;

/**
 * The subscribers of one dispatch, and its live output while it runs here.
 * Output comes on the dispatch's reader thread: each chunk is offered to each
 * subscriber's bounded buffer, which copies what fits and counts the rest, so
 * capture never waits on a subscriber. With none, a chunk costs a look at an
 * empty list. The last bytes of each stream are kept, as many as the longest
 * form of a secret, so a subscriber that joins while the dispatch prints masks
 * its first window knowing what came before it.
 */
final class Channel implements OutputSink {

    private final String dispatchId;
    private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
    private volatile SecretMasker masker = SecretMasker.NONE;
    private volatile boolean running;
    /** Reader thread, and joining, under this channel's lock: each stream's last bytes and where they end. */
    private final StreamEdge stdoutEdge = new StreamEdge();

    private final StreamEdge stderrEdge = new StreamEdge();

    Channel(String dispatchId) {
        this.dispatchId = dispatchId;
    }

    String dispatchId() {
        return dispatchId;
    }

    List<Subscriber> subscribers() {
        return subscribers;
    }

    SecretMasker masker() {
        return masker;
    }

    /**
     * Adds a subscriber, its tail starting at the next chunk of each stream
     * with the bytes just before it known.
     */
    synchronized void join(Subscriber subscriber) {
        subscriber.startAfter(stdoutEdge.copy(), stderrEdge.copy());
        subscribers.add(subscriber);
    }

    /** The dispatch starts here: its output will come through this channel, masked with {@code masker}. */
    void running(SecretMasker masker) {
        this.masker = masker;
        this.running = true;
    }

    /** The dispatch ended: no more output. */
    void ended() {
        running = false;
    }

    /** Whether nothing needs the channel any longer. */
    boolean unused() {
        return !running && subscribers.isEmpty();
    }

    @Override
    public synchronized void stdout(byte[] chunk, int offset, int count) {
        long at = stdoutEdge.end();
        for (Subscriber s : subscribers) {
            s.stdout(at, chunk, offset, count);
        }
        stdoutEdge.append(at, chunk, offset, count, masker.margin());
    }

    @Override
    public synchronized void stderr(byte[] chunk, int offset, int count) {
        long at = stderrEdge.end();
        for (Subscriber s : subscribers) {
            s.stderr(at, chunk, offset, count);
        }
        stderrEdge.append(at, chunk, offset, count, masker.margin());
    }
}
