package dev.sluice.mcp;

import java.util.concurrent.CompletionStage;

import jakarta.inject.Inject;

import dev.sluice.events.EventHub;
import dev.sluice.events.EventMessage;
import dev.sluice.events.EventSink;
import dev.sluice.record.DispatchConfig;
import dev.sluice.record.DispatchLinks;
import dev.sluice.run.DispatchIntake;

/**
 * A door that breaks the rules a door can break on purpose: it reaches past
 * {@code actions} into the run, injects a bean ({@code EventHub}) and a
 * setting ({@code DispatchConfig}) of the packages below, calls a utility class of
 * theirs that is no document ({@code DispatchLinks}), and implements the
 * events' port, as a door may, but also calls another sink through it, as it
 * may not; and it holds a statement on the dispatches table outside the
 * record. Only {@code ArchitectureTest} reads it, to show that each rule fails
 * when the code breaks it.
 */
public final class PlantedDoorImport implements EventSink {

    static final String STATEMENT = "SELECT id FROM dispatches WHERE id = ?";

    @Inject
    EventHub hub;

    @Inject
    DispatchConfig limits;

    private EventSink next;

    private PlantedDoorImport() {}

    static String describe(DispatchIntake intake) {
        return String.valueOf(intake) + STATEMENT;
    }

    String link(String id) {
        return DispatchLinks.self(id) + limits.retryAfter() + hub;
    }

    @Override
    public CompletionStage<?> send(EventMessage message) {
        return next.send(message);
    }

    @Override
    public CompletionStage<?> open() {
        return next.open();
    }

    @Override
    public boolean isClosed() {
        return next.isClosed();
    }

    @Override
    public void close() {
        next.close();
    }
}
