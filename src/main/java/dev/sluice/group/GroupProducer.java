package dev.sluice.group;

import java.time.Clock;

import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.sluice.callback.CallbackStore;
import dev.sluice.callback.MessageQueued;
import dev.sluice.record.DispatchStore;
import dev.sluice.run.DispatchIntake;
import dev.sluice.store.Jdbc;
import dev.sluice.store.JsonColumns;

class GroupProducer {

    @Produces
    @Singleton
    GroupStore store(Jdbc jdbc, JsonColumns json, DispatchStore dispatches) {
        return new GroupStore(jdbc, json, dispatches);
    }

    @Produces
    @Singleton
    GroupIntake intake(DispatchIntake intake, GroupStore store, GroupConfig config, Clock clock) {
        return new GroupIntake(intake, store, config, clock);
    }

    @Produces
    @Singleton
    GroupQueries queries(GroupStore store, DispatchStore dispatches) {
        return new GroupQueries(store, dispatches);
    }

    @Produces
    @Singleton
    GroupBatcher batcher(
            GroupStore store,
            GroupConfig config,
            CallbackStore outbox,
            DispatchStore dispatches,
            Clock clock,
            Event<MessageQueued> queued) {
        return new GroupBatcher(
                store,
                new GroupBatches(config.batchWindow()),
                outbox,
                id -> dispatches.digest(id).orElseThrow(),
                clock,
                queued::fire);
    }
}
