package dev.sluice.events;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import dev.sluice.output.SecretMasker;
import dev.sluice.record.DispatchKey;

/**
 * One open event stream: the state events waiting to be sent (a few per
 * dispatch, at most {@value #MAX_WAITING} in all), and for a stream of one
 * dispatch its live tail, two bounded {@link TailBuffer}s. Output is sent
 * within a byte budget that refills at the subscriber's rate, so a stream is
 * never sent more than that however fast the process prints. Taking is done by
 * the events thread alone; states and output arrive from other threads.
 */
final class Subscriber {

    static final int MAX_WAITING = 256;

    private final Channel channel;
    private final MetadataFilter filter;
    /** The tenant whose dispatches a stream of all shows; {@code null}: every tenant's. */
    private final String tenant;

    private final EventSink sink;
    private final TailBuffer stdout;
    private final TailBuffer stderr;
    private final long rate;
    private final ArrayDeque<EventMessage> waiting = new ArrayDeque<>();
    private EventMessage terminal;
    private boolean ended;
    private int lastRank;
    private long missedStates;
    private long budget;
    /**
     * A batch is being written, the next waits for it; true from the start,
     * until the response's head is out. Events thread only, after that.
     */
    boolean sending = true;

    private Subscriber(
            Channel channel,
            MetadataFilter filter,
            String tenant,
            EventSink sink,
            int buffer,
            long rate,
            int lastRank) {
        this.channel = channel;
        this.filter = filter;
        this.tenant = tenant;
        this.sink = sink;
        this.stdout = channel == null ? null : new TailBuffer(buffer);
        this.stderr = channel == null ? null : new TailBuffer(buffer);
        this.rate = rate;
        this.budget = rate;
        this.lastRank = lastRank;
    }

    /** A subscriber to one dispatch, resuming after the state event whose id was {@code lastEventId} (0 for none). */
    static Subscriber toDispatch(Channel channel, EventSink sink, int buffer, long rate, int lastEventId) {
        return new Subscriber(channel, null, null, sink, buffer, rate, lastEventId);
    }

    /**
     * A subscriber to the state changes of every dispatch of {@code tenant} ({@code null}:
     * of every tenant) that {@code filter} lets through.
     */
    static Subscriber toAll(String tenant, MetadataFilter filter, EventSink sink) {
        return new Subscriber(null, filter, tenant, sink, 0, 0, 0);
    }

    /** Whether a stream of all shows this dispatch: one of its tenant's (ADR 0052). */
    boolean shows(String dispatchId) {
        return tenant == null || tenant.equals(DispatchKey.tenantOf(dispatchId));
    }

    Channel channel() {
        return channel;
    }

    MetadataFilter filter() {
        return filter;
    }

    EventSink sink() {
        return sink;
    }

    /** The bytes of each stream just before the first this subscriber will be offered. */
    void startAfter(StreamEdge stdoutBefore, StreamEdge stderrBefore) {
        stdout.startAfter(stdoutBefore);
        stderr.startAfter(stderrBefore);
    }

    void stdout(long at, byte[] chunk, int from, int count) {
        stdout.offer(at, chunk, from, count);
    }

    void stderr(long at, byte[] chunk, int from, int count) {
        stderr.offer(at, chunk, from, count);
    }

    /**
     * A state the dispatch reached. A stream of one dispatch shows each state
     * once, in order: one it has shown or passed (or that the client saw
     * before it resumed) is not shown again.
     */
    synchronized void state(StateEvent state) {
        if (ended) {
            return;
        }
        if (channel != null) {
            if (state.rank() <= lastRank) {
                ended |= state.terminal(); // the client saw the end before it resumed
                return;
            }
            lastRank = state.rank();
            if (state.terminal()) {
                terminal = state.message(true);
                return;
            }
        }
        if (waiting.size() >= MAX_WAITING) {
            missedStates++;
        } else {
            waiting.add(state.message(channel != null));
        }
    }

    /**
     * An event of the dispatch that is not a state ({@code pulling}): sent in
     * its turn among the states, without an id, and not after the end.
     */
    synchronized void notice(EventMessage message) {
        if (ended || terminal != null) {
            return;
        }
        if (waiting.size() >= MAX_WAITING) {
            missedStates++;
        } else {
            waiting.add(message);
        }
    }

    /** Adds a share of the rate to the budget, which never holds more than a second's worth. */
    void refill(long bytes) {
        budget = Math.min(rate, budget + bytes);
    }

    synchronized boolean pending() {
        return !waiting.isEmpty()
                || missedStates > 0
                || terminal != null
                || ended
                || (stdout != null && (stdout.pending() || stderr.pending()));
    }

    synchronized boolean ended() {
        return ended;
    }

    /**
     * What to send now, in order: the states reached, output within the
     * budget with the gaps in it, and the end. At the end, output the budget
     * does not cover is reported missed rather than held back.
     */
    synchronized List<EventMessage> take() {
        List<EventMessage> out = new ArrayList<>(waiting);
        waiting.clear();
        if (missedStates > 0) {
            out.add(new EventMessage("gap", null, "{\"events\":" + missedStates + "}"));
            missedStates = 0;
        }
        if (stdout != null) {
            boolean last = terminal != null;
            SecretMasker masker = channel.masker();
            tail(out, "stdout", stdout.take((int) Math.min(budget, Integer.MAX_VALUE), last, masker));
            tail(out, "stderr", stderr.take((int) Math.min(budget, Integer.MAX_VALUE), last, masker));
        }
        if (terminal != null) {
            out.add(terminal);
            terminal = null;
            ended = true;
        }
        return out;
    }

    private void tail(List<EventMessage> out, String stream, TailBuffer.Taken taken) {
        budget -= taken.bytes();
        if (taken.text() != null) {
            out.add(new EventMessage(
                    stream, null, "{\"offset\":" + taken.offset() + ",\"text\":" + Json.string(taken.text()) + "}"));
        }
        if (taken.gapBytes() > 0) {
            out.add(new EventMessage(
                    "gap",
                    null,
                    "{\"stream\":\"" + stream + "\",\"offset\":" + taken.gapOffset() + ",\"bytes\":" + taken.gapBytes()
                            + "}"));
        }
    }
}
