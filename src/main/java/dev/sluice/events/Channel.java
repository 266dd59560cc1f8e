package dev.sluice.events;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.sluice.container.OutputSink;
import dev.sluice.output.SecretMasker;

/**
 * The subscribers of one dispatch, and its live output while it runs here.
 * Output comes on the dispatch's reader thread: each chunk is offered to each
 * subscriber's bounded buffer, which copies what fits and counts the rest, so
 * capture never waits on a subscriber. With none, a chunk costs a look at an
 * empty list.
 */
final class Channel implements OutputSink {

    private final String dispatchId;
    private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
    private volatile SecretMasker masker = SecretMasker.NONE;
    private volatile boolean running;
    /** Reader thread only: where the next chunk of each stream begins. */
    private long stdoutOffset;

    private long stderrOffset;

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
    public void stdout(byte[] chunk, int offset, int count) {
        for (Subscriber s : subscribers) {
            s.stdout(stdoutOffset, chunk, offset, count);
        }
        stdoutOffset += count;
    }

    @Override
    public void stderr(byte[] chunk, int offset, int count) {
        for (Subscriber s : subscribers) {
            s.stderr(stderrOffset, chunk, offset, count);
        }
        stderrOffset += count;
    }
}
