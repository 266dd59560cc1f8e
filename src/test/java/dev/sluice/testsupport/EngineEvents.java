package dev.sluice.testsupport;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Event;
import com.github.dockerjava.api.model.EventType;

import dev.sluice.container.engine.DockerClients;

/** What the engine says happened, from its event log: counted by tests of what the worker asked of it. */
public final class EngineEvents {

    private EngineEvents() {}

    /** The engine's {@code action} events of {@code type} from {@code since} until now. */
    public static List<Event> since(DockerClients clients, EventType type, String action, Instant since)
            throws InterruptedException {
        Instant until = Instant.now().plusMillis(100);
        Thread.sleep(200); // the engine answers a query ending in the future only once that time has come
        List<Event> events = new ArrayList<>();
        clients.control()
                .eventsCmd()
                .withSince(seconds(since.minusMillis(1)))
                .withUntil(seconds(until))
                .withEventTypeFilter(type)
                .withEventFilter(action)
                .exec(new ResultCallback.Adapter<Event>() {
                    @Override
                    public void onNext(Event event) {
                        events.add(event);
                    }
                })
                .awaitCompletion(30, TimeUnit.SECONDS);
        return events;
    }

    private static String seconds(Instant t) {
        return t.getEpochSecond() + "." + String.format("%09d", t.getNano());
    }
}
