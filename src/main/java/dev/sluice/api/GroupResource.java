package dev.sluice.api;

import java.net.URI;

import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;

import dev.sluice.actions.GroupActions;
import dev.sluice.actions.GroupRequest;
import dev.sluice.actions.GroupView;
import dev.sluice.actions.ProblemException;
import io.opentelemetry.context.Scope;

/** The dispatch group routes; declared by {@link GroupApi}, done by {@link GroupActions}. */
public class GroupResource implements GroupApi {

    @Inject
    GroupActions actions;

    @Inject
    Callers callers;

    @Inject
    IncomingTraces traces;

    @Override
    public Response create(GroupRequest request) {
        if (request == null) {
            throw new ProblemException(
                    400,
                    "body-required",
                    "A request body is required",
                    "POST a JSON object with at least one member in dispatches");
        }
        GroupView group;
        try (Scope trace = traces.enter()) {
            group = actions.create(callers.current(), request);
        }
        return Response.accepted(group)
                .location(URI.create(group.links().self()))
                .build();
    }

    @Override
    public GroupView get(String id) {
        return actions.get(callers.current(), id);
    }
}
