package dev.sluice.record;

import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.sluice.artifact.ArtifactStore;
import dev.sluice.output.OutputCollector;
import dev.sluice.output.OutputLimits;
import dev.sluice.store.Jdbc;
import dev.sluice.store.JsonColumns;
import dev.sluice.store.ResultBodies;

/** The dispatch record's store, its transitions, its reads and its reaper, and the secrets held beside it. */
class RecordProducer {

    @Produces
    @Singleton
    SecretVault secretVault(SecretsConfig config) {
        return new SecretVault(config.minLength());
    }

    @Produces
    @Singleton
    OutputCaps outputCaps(OutputLimits limits) {
        return new OutputCaps(
                OutputCollector.MIN_CAP,
                limits.stdoutCap(),
                limits.maxStdoutCap(),
                limits.stderrCap(),
                limits.maxStderrCap());
    }

    @Produces
    @Singleton
    DispatchStore dispatchStore(Jdbc jdbc, JsonColumns json, ResultBodies bodies) {
        return new DispatchStore(jdbc, json, bodies);
    }

    @Produces
    @Singleton
    DispatchTransitions transitions(
            Jdbc jdbc, JsonColumns json, ResultBodies bodies, Event<DispatchStateChanged> changed) {
        return new DispatchTransitions(jdbc, json, bodies, changed::fire);
    }

    @Produces
    @Singleton
    DispatchQueries queries(DispatchStore store) {
        return new DispatchQueries(store);
    }

    @Produces
    @Singleton
    RecordReaper recordReaper(Jdbc jdbc, ResultBodies bodies, ArtifactStore artifacts, DispatchConfig config) {
        return new RecordReaper(jdbc, bodies, artifacts, config.recordRetention());
    }

    @Produces
    @Singleton
    WaitingDispatches waitingDispatches(Jdbc jdbc) {
        return new WaitingDispatches(jdbc);
    }
}
