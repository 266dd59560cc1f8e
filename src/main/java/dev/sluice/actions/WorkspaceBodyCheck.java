package dev.sluice.actions;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import dev.sluice.record.DispatchConfig;
import dev.sluice.workspace.WorkspaceConfig;
import io.quarkus.runtime.StartupEvent;

/**
 * The request body must be able to carry the largest workspace the worker
 * takes (ADR 0060): its files in base64 (4/3 of {@code
 * sluice.workspace.max-bytes}), the largest input and room for the rest of
 * the request. A worker whose body limit is smaller refuses to start and says
 * what to set, rather than refusing workspaces it advertises with a 413.
 */
@Singleton
final class WorkspaceBodyCheck {

    /** The rest of a request: its JSON, command, env, metadata (16 KiB at most) and the workspace's paths. */
    static final long ROOM = 256 * 1024;

    void check(@Observes StartupEvent start, ApiConfig api, WorkspaceConfig workspace, DispatchConfig dispatch) {
        long needed =
                needed(workspace.maxBytes().asLongValue(), dispatch.maxInput().asLongValue());
        long limit = api.maxRequestSize().asLongValue();
        if (limit < needed) {
            throw new IllegalStateException("sluice.api.max-request-size is " + limit
                    + " bytes, less than a request with the largest workspace and input needs: set it to at least "
                    + needed + " (4/3 of sluice.workspace.max-bytes, plus sluice.dispatch.max-input, plus "
                    + ROOM + "), or lower sluice.workspace.max-bytes");
        }
    }

    static long needed(long workspaceBytes, long maxInput) {
        return (workspaceBytes + 2) / 3 * 4 + maxInput + ROOM;
    }
}
