package dev.sluice.actions;

import java.time.Clock;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.sluice.artifact.ArtifactStore;
import dev.sluice.record.DispatchQueries;
import dev.sluice.worker.Peers;
import dev.sluice.worker.Worker;

/** The read of a dispatch's artifacts, which only the doors ask for. */
class ActionsProducer {

    @Produces
    @Singleton
    DispatchArtifacts artifacts(DispatchQueries queries, ArtifactStore store, Worker worker, Clock clock, Peers peers) {
        return new DispatchArtifacts(
                queries,
                store,
                worker.id(),
                clock,
                id -> peers.find(id).map(p -> p instanceof Peers.Peer.Gone).orElse(false));
    }
}
