package dev.sluice.workspace;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchFinished;
import dev.sluice.record.DispatchStore;
import io.quarkus.runtime.StartupEvent;

/**
 * Deletes a dispatch's workspace when it ends, however it ends (the one
 * finish path announces each), and at start-up what a stopped worker left:
 * temporary files, and workspaces of dispatches that ended or are gone; those
 * of dispatches still to run are counted again in their tenants' shares.
 */
@Singleton
class WorkspaceCleanup {

    private static final Logger LOG = Logger.getLogger(WorkspaceCleanup.class);

    private final Workspaces workspaces;
    private final DispatchStore store;

    @Inject
    WorkspaceCleanup(Workspaces workspaces, DispatchStore store) {
        this.workspaces = workspaces;
        this.store = store;
    }

    void finished(@Observes DispatchFinished event) {
        workspaces.ended(event.dispatchId());
    }

    void sweep(@Observes StartupEvent start) {
        int deleted = 0;
        for (String key : workspaces.sweepTemporaries()) {
            try {
                if (store.find(key)
                        .map(Dispatch::status)
                        .map(Dispatch.Status::terminal)
                        .orElse(true)) {
                    workspaces.ended(key);
                    deleted++;
                } else {
                    workspaces.stillKept(key);
                }
            } catch (RuntimeException e) {
                LOG.warnf("could not look up the dispatch of a kept workspace: %s", e.getMessage());
                return; // the next start tries again
            }
        }
        if (deleted > 0) {
            LOG.infof("deleted %d workspaces of dispatches that ended", deleted);
        }
    }
}
