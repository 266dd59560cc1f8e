package dev.sluice.api;

import java.net.URI;

import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;

import dev.sluice.actions.GroupActions;
import dev.sluice.actions.GroupRequest;
import dev.sluice.actions.GroupView;
import dev.sluice.actions.ProblemException;

/** The dispatch group routes; declared by {@link GroupApi}, done by {@link GroupActions}. */
public class GroupResource implements GroupApi {

    @Inject
    GroupActions actions;

    @Override
    public Response create(GroupRequest request) {
        if (request == null) {
            throw new ProblemException(
                    400,
                    "body-required",
                    "A request body is required",
                    "POST a JSON object with at least one member in dispatches");
        }
        String id = actions.create(request);
        return Response.accepted(get(id))
                .location(URI.create("/v1/dispatch-groups/" + id))
                .build();
    }

    @Override
    public GroupView get(String id) {
        return actions.get(id);
    }
}
