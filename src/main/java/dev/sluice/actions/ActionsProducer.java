package dev.sluice.actions;

import java.time.Clock;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.actions.reading.BodyLimits;
import dev.sluice.actions.reading.BodyReader;
import dev.sluice.actions.reading.DecodingBudget;
import dev.sluice.artifact.ArtifactStore;
import dev.sluice.group.GroupConfig;
import dev.sluice.record.DispatchQueries;
import dev.sluice.worker.Peers;
import dev.sluice.worker.Worker;
import dev.sluice.workspace.WorkspaceConfig;
import io.quarkus.runtime.Startup;

/** The read of a dispatch's artifacts, which only the doors ask for; how request bodies are read. */
class ActionsProducer {

    /** Bodies read within the bounds of the contract and the worker's settings (ADR 0076). */
    @Produces
    @Singleton
    BodyReader bodies(ObjectMapper json, ApiConfig api, GroupConfig groups, WorkspaceConfig workspace) {
        return new BodyReader(
                json, new BodyLimits(api.maxRequestSize().asLongValue(), groups.maxMembers(), workspace.maxEntries()));
    }

    /**
     * The decoding budget, made at start so that settings under which some
     * body could never be read stop the worker before it serves anything.
     */
    @Produces
    @Singleton
    @Startup
    DecodingBudget decodingBudget(ApiConfig api) {
        long total = api.maxDecodingBytes().asLongValue();
        long perTenant = api.maxDecodingBytesPerTenant().asLongValue();
        long largest = Math.max(api.maxRequestSize().asLongValue(), BodyLimits.mostTokenCharge());
        if (perTenant < largest) {
            throw new IllegalStateException("sluice.api.max-decoding-bytes-per-tenant is " + perTenant
                    + " bytes, less than one body may be charged: set it to at least " + largest
                    + " (sluice.api.max-request-size, or " + BodyLimits.MAX_TOKENS + " tokens of "
                    + BodyLimits.TOKEN_BYTES + " bytes, whichever is more)");
        }
        if (total < perTenant) {
            throw new IllegalStateException("sluice.api.max-decoding-bytes is " + total
                    + " bytes, less than sluice.api.max-decoding-bytes-per-tenant (" + perTenant + ")");
        }
        return new DecodingBudget(total, perTenant);
    }

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
