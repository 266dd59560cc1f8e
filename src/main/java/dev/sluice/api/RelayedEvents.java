package dev.sluice.api;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.sluice.actions.EventStreams;
import dev.sluice.actions.OwnerAnswer;
import dev.sluice.actions.OwnerReads;
import dev.sluice.concurrent.Threads;
import dev.sluice.events.EventMessage;

/**
 * A dispatch's event stream relayed from the replica running it (ADR 0065),
 * event by event onto this request's stream, never more than one event held.
 * Each relayed stream takes a thread here, at most
 * {@code sluice.events.max-subscribers} of them. When the owner says nothing
 * for the lease (a quiet dispatch) the relay asks it again from the last state
 * seen, unless the client has left or the dispatch is no longer the owner's
 * to tell; when the owner's stream ends, so does the client's.
 */
@Singleton
class RelayedEvents {

    private static final Logger LOG = Logger.getLogger(RelayedEvents.class);

    /** Longer than any event an owner sends (a tail chunk of sluice.events.subscriber-buffer, as JSON). */
    private static final int MAX_LINE = 1024 * 1024;

    private final ThreadPoolExecutor threads;
    private final Duration sendTimeout;

    @Inject
    RelayedEvents(EventStreams streams, OwnerReads owners) {
        this.threads = new ThreadPoolExecutor(
                0,
                streams.maxStreams(),
                30,
                TimeUnit.SECONDS,
                new SynchronousQueue<>(),
                Threads.named("relayed-events-"));
        this.sendTimeout = owners.streamIdle();
    }

    /**
     * Relays {@code first} onto {@code sink}; {@code again} opens the owner's
     * stream anew after the state with the given id (null: none), or is empty
     * when it is no longer to be relayed. False when no thread is free.
     */
    boolean relay(
            OwnerAnswer first, SseEvents sink, Function<String, Optional<OwnerAnswer>> again, String lastEventId) {
        try {
            threads.execute(() -> pump(first, sink, again, lastEventId));
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    private void pump(
            OwnerAnswer first, SseEvents sink, Function<String, Optional<OwnerAnswer>> again, String lastEventId) {
        String last = lastEventId;
        Optional<OwnerAnswer> current = Optional.of(first);
        try {
            sink.open().toCompletableFuture().get(sendTimeout.toMillis(), TimeUnit.MILLISECONDS);
            while (current.isPresent()) {
                try (OwnerAnswer served = current.get()) {
                    last = copy(served.body(), sink, last);
                    current = Optional.empty(); // the owner ended the stream: its dispatch ended, or it stops
                } catch (SocketTimeoutException quiet) {
                    current = sink.isClosed() ? Optional.empty() : again.apply(last);
                }
            }
        } catch (Exception e) { // the client left, or the owner's stream broke: either way this one ends
            LOG.debugf("a relayed event stream ended: %s", e.toString());
        } finally {
            current.ifPresent(RelayedEvents::close);
            sink.close();
        }
    }

    /** Sends each event of {@code in} as it comes; returns the id of the last state sent. */
    private String copy(InputStream in, SseEvents sink, String last) throws Exception {
        String name = null;
        String id = null;
        StringBuilder data = null;
        String line;
        while ((line = line(in)) != null) {
            if (line.isEmpty()) {
                if (data != null) {
                    sink.send(new EventMessage(name == null ? "message" : name, id, data.toString()))
                            .toCompletableFuture()
                            .get(sendTimeout.toMillis(), TimeUnit.MILLISECONDS);
                    last = id == null ? last : id;
                }
                name = null;
                id = null;
                data = null;
            } else if (line.startsWith("event:")) {
                name = value(line, 6);
            } else if (line.startsWith("id:")) {
                id = value(line, 3);
            } else if (line.startsWith("data:")) {
                data = data == null ? new StringBuilder() : data.append('\n');
                data.append(value(line, 5));
            } // comments and other fields are the owner's own
        }
        return last;
    }

    private static String value(String line, int from) {
        return line.startsWith(" ", from) ? line.substring(from + 1) : line.substring(from);
    }

    /** One line of the stream, without its end; null at the end of the stream. */
    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n') {
                return stripCr(line);
            }
            if (line.size() == MAX_LINE) {
                throw new IOException("an event line longer than " + MAX_LINE + " bytes");
            }
            line.write(b);
        }
        return line.size() == 0 ? null : stripCr(line);
    }

    private static String stripCr(ByteArrayOutputStream line) {
        String text = line.toString(StandardCharsets.UTF_8);
        return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
    }

    private static void close(OwnerAnswer served) {
        try {
            served.close();
        } catch (IOException e) {
            LOG.debugf("closing a relayed event stream: %s", e.getMessage());
        }
    }

    @PreDestroy
    void stop() {
        threads.shutdownNow();
    }
}
