package dev.sluice.events;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.sluice.concurrent.Threads;
import dev.sluice.container.stream.OutputSink;
import dev.sluice.output.SecretMasker;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchAccepted;
import dev.sluice.record.DispatchFinished;
import dev.sluice.record.DispatchKey;
import dev.sluice.record.DispatchPulling;
import dev.sluice.record.DispatchQueries;
import dev.sluice.record.DispatchStateChanged;
import dev.sluice.run.OutputTap;

/**
 * Fans the lifecycle and the live output out to event streams (ADR 0026).
 * States come from the announcements of the one place that changes them;
 * output from the runner's {@link OutputTap}. All sending happens on one
 * events thread: the threads that announce or capture only hand over and
 * return. Each subscriber is sent one batch at a time, and is let go when its
 * connection closes or a write fails.
 */
@Singleton
public class EventHub implements OutputTap {

    private static final Logger LOG = Logger.getLogger(EventHub.class);
    /** The metadata of dispatches kept for filtering: only of those in flight, and never more than this. */
    private static final int MAX_METADATA = 10_000;

    private final DispatchQueries queries;
    private final int buffer;
    private final long rate;
    private final long refillPerTick;
    private final ScheduledExecutorService thread =
            Executors.newSingleThreadScheduledExecutor(Threads.named("events-"));
    private final Map<String, Channel> channels = new ConcurrentHashMap<>();
    private final List<Subscriber> all = new CopyOnWriteArrayList<>();
    private final Map<String, Map<String, Object>> metadata = new ConcurrentHashMap<>();
    private final StreamCount streams;
    private final Map<Subscriber, String> tenants = new ConcurrentHashMap<>();

    /** Whether a stream was opened, or which bound refused it. */
    public enum Admission {
        OPEN,
        /** {@code sluice.events.max-subscribers} streams are open on this worker. */
        WORKER_FULL,
        /** {@code sluice.events.max-subscribers-per-tenant} streams of the caller's tenant are open. */
        TENANT_FULL
    }

    @Inject
    public EventHub(EventsConfig config, DispatchQueries queries) {
        this.queries = queries;
        this.buffer =
                (int) Math.min(Integer.MAX_VALUE, config.subscriberBuffer().asLongValue());
        this.rate = config.maxRate().asLongValue();
        this.streams = new StreamCount(config.maxSubscribers(), config.maxSubscribersPerTenant());
        long tick = config.flushInterval().toMillis();
        this.refillPerTick = Math.max(1, rate * tick / 1000);
        thread.scheduleWithFixedDelay(this::tick, tick, tick, TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        thread.shutdownNow();
        channels.values().forEach(c -> c.subscribers().forEach(s -> s.sink().close()));
        all.forEach(s -> s.sink().close());
    }

    // ---- where events come from

    @Override
    public OutputSink open(String dispatchId, SecretMasker masker) {
        // Inside compute: a channel is never let go between being found and being marked running.
        return channels.compute(dispatchId, (id, c) -> {
            Channel channel = c == null ? new Channel(id) : c;
            channel.running(masker);
            return channel;
        });
    }

    void accepted(@Observes DispatchAccepted event) {
        changed(event.dispatchId(), Dispatch.Status.QUEUED);
    }

    void changed(@Observes DispatchStateChanged event) {
        changed(event.dispatchId(), event.status());
    }

    void finished(@Observes DispatchFinished event) {
        changed(event.dispatchId(), event.status());
    }

    /** A dispatch waits for its image to be pulled (ADR 0059): its own stream says so, once per pull it waits for. */
    void pulling(@Observes DispatchPulling event) {
        if (channels.containsKey(event.dispatchId())) {
            post(() -> publishPulling(event));
        }
    }

    private void publishPulling(DispatchPulling event) {
        Channel channel = channels.get(event.dispatchId());
        if (channel == null) {
            return;
        }
        EventMessage message = new EventMessage(
                "pulling",
                null,
                "{\"id\":" + Json.string(DispatchKey.idOf(event.dispatchId())) + ",\"image\":"
                        + Json.string(event.image()) + "}");
        for (Subscriber s : channel.subscribers()) {
            s.notice(message);
            flush(s);
        }
    }

    private void changed(String dispatchId, Dispatch.Status status) {
        if (channels.containsKey(dispatchId) || !all.isEmpty()) {
            post(() -> publish(dispatchId, status));
        }
    }

    /** Hands work to the events thread; never throws at the thread announcing, also once it has stopped. */
    private void post(Runnable work) {
        try {
            thread.execute(work);
        } catch (RejectedExecutionException e) {
            LOG.debug("events thread stopped: an event was not sent");
        }
    }

    // ---- subscribing

    /**
     * Opens a stream of one dispatch's events, resuming after
     * {@code lastEventId} (0 for none), counted against {@code tenant}'s
     * streams; refused when too many are open. An unknown id throws the
     * store's not-found refusal, and nothing stays open.
     */
    public Admission subscribe(String tenant, String dispatchId, int lastEventId, EventSink sink) {
        Admission admission = streams.admit(tenant);
        if (admission != Admission.OPEN) {
            return admission;
        }
        Subscriber[] joined = new Subscriber[1];
        channels.compute(dispatchId, (id, c) -> {
            Channel channel = c == null ? new Channel(id) : c;
            joined[0] = Subscriber.toDispatch(channel, sink, buffer, rate, lastEventId);
            tenants.put(joined[0], tenant);
            channel.join(joined[0]);
            return channel;
        });
        Subscriber subscriber = joined[0];
        Dispatch.Status now;
        try {
            // Read after joining: a change after this read reaches the subscriber as an event.
            now = queries.get(dispatchId).status();
        } catch (RuntimeException e) {
            leave(subscriber);
            throw e;
        }
        open(subscriber, now);
        return Admission.OPEN;
    }

    /**
     * Opens a stream of the state changes of every dispatch of {@code tenant} (of every
     * tenant's, for {@code everyTenant}) that {@code filter} lets through ({@code null}:
     * all), counted against {@code tenant}'s streams.
     */
    public Admission subscribeAll(String tenant, boolean everyTenant, MetadataFilter filter, EventSink sink) {
        Admission admission = streams.admit(tenant);
        if (admission != Admission.OPEN) {
            return admission;
        }
        Subscriber subscriber = Subscriber.toAll(everyTenant ? null : tenant, filter, sink);
        tenants.put(subscriber, tenant);
        all.add(subscriber);
        open(subscriber, null);
        return Admission.OPEN;
    }

    /**
     * Sends the head of the response on the request's own thread, before the
     * REST layer would (it must be the only one to), then the state the
     * dispatch was in when the subscriber joined. Until the head is out the
     * subscriber is {@link Subscriber#sending}: changes wait for it.
     */
    private void open(Subscriber subscriber, Dispatch.Status now) {
        subscriber
                .sink()
                .open()
                .whenComplete((ignored, failure) -> post(() -> {
                    if (now != null && failure == null) {
                        subscriber.state(stateEvent(subscriber.channel().dispatchId(), now));
                    }
                    sent(subscriber, failure);
                }));
    }

    // ---- the events thread

    private void publish(String dispatchId, Dispatch.Status status) {
        Channel channel = channels.get(dispatchId);
        if (channel != null && status.terminal()) {
            channel.ended();
            channels.computeIfPresent(dispatchId, (id, c) -> c.unused() ? null : c);
        }
        if ((channel == null || channel.subscribers().isEmpty()) && all.isEmpty()) {
            return; // it ran here, and nobody watched
        }
        StateEvent event = stateEvent(dispatchId, status);
        if (channel != null) {
            for (Subscriber s : channel.subscribers()) {
                s.state(event);
                flush(s);
            }
        }
        for (Subscriber s : all) {
            if (s.shows(dispatchId) && (s.filter() == null || s.filter().matches(metadataOf(dispatchId)))) {
                s.state(event);
                flush(s);
            }
        }
        if (status.terminal()) {
            metadata.remove(dispatchId);
        }
    }

    private StateEvent stateEvent(String dispatchId, Dispatch.Status status) {
        byte[] digest = null;
        if (status.terminal()) {
            try {
                digest = queries.digest(dispatchId);
            } catch (RuntimeException e) {
                LOG.debugf("no digest for the end of %s: %s", dispatchId, e.getMessage());
            }
        }
        return new StateEvent(dispatchId, status, digest);
    }

    private Map<String, Object> metadataOf(String dispatchId) {
        Map<String, Object> known = metadata.get(dispatchId);
        if (known != null) {
            return known;
        }
        try {
            Map<String, Object> read = queries.get(dispatchId).metadata();
            known = read == null ? Map.of() : read;
        } catch (RuntimeException e) {
            return Map.of();
        }
        if (metadata.size() >= MAX_METADATA) {
            metadata.clear();
        }
        metadata.put(dispatchId, known);
        return known;
    }

    private void tick() {
        try {
            for (Channel c : channels.values()) {
                c.subscribers().forEach(this::keepUp);
            }
            all.forEach(this::keepUp);
        } catch (RuntimeException e) {
            LOG.warn("events tick failed", e);
        }
    }

    private void keepUp(Subscriber s) {
        if (s.sink().isClosed()) {
            leave(s);
            return;
        }
        s.refill(refillPerTick);
        if (s.pending()) {
            flush(s);
        }
    }

    /** Sends what the subscriber has to be sent now, unless a batch is still being written. */
    private void flush(Subscriber s) {
        if (s.sending) {
            return;
        }
        List<EventMessage> batch = s.take();
        if (batch.isEmpty()) {
            if (s.ended()) {
                end(s);
            }
            return;
        }
        s.sending = true;
        CompletionStage<?> last = null;
        for (EventMessage m : batch) {
            last = s.sink().send(m);
        }
        last.whenComplete((ignored, failure) -> post(() -> sent(s, failure)));
    }

    private void sent(Subscriber s, Throwable failure) {
        s.sending = false;
        if (failure != null) {
            end(s);
        } else if (s.pending()) {
            flush(s);
        }
    }

    private void end(Subscriber s) {
        leave(s);
        s.sink().close();
    }

    private void leave(Subscriber s) {
        boolean removed;
        Channel channel = s.channel();
        if (channel == null) {
            removed = all.remove(s);
        } else {
            removed = channel.subscribers().remove(s);
            channels.computeIfPresent(channel.dispatchId(), (id, c) -> c.unused() ? null : c);
        }
        String tenant = removed ? tenants.remove(s) : null;
        if (tenant != null) {
            streams.release(tenant);
        }
    }
}
