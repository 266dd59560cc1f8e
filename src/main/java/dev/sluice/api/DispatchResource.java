package dev.sluice.api;

import java.net.URI;

import jakarta.inject.Inject;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import dev.sluice.callback.CallbackService;
import dev.sluice.dispatch.Cancellation;
import dev.sluice.dispatch.Dispatch;
import dev.sluice.dispatch.DispatchIntake;
import dev.sluice.dispatch.DispatchLinks;
import dev.sluice.dispatch.LogRange;

/** The v1 dispatch API (docs/api.md, section 2); its routes and answers are declared by {@link DispatchApi}. */
public class DispatchResource implements DispatchApi {

    @Inject
    DispatchActions actions;

    @Inject
    CallbackService callbacks;

    @Override
    public Response create(DispatchRequest request) {
        if (request == null) {
            throw new ProblemException(
                    400, "body-required", "A request body is required", "POST a JSON object with at least an image");
        }
        DispatchIntake.Accepted accepted = actions.create(request);
        Dispatch d = accepted.dispatch();
        return Response.accepted(actions.view(d))
                .location(URI.create(DispatchLinks.self(d.id())))
                .header(REPLAYED, accepted.created() ? null : "true")
                .build();
    }

    @Override
    public DispatchView get(String id) {
        return actions.view(actions.get(id));
    }

    @Override
    public Response list(String status, String limit, String after) {
        DispatchListView page = actions.list(status, limit, after);
        Response.ResponseBuilder response = Response.ok(page);
        if (page.next() != null) {
            response.header("Link", "<" + page.next() + ">; rel=\"next\"");
        }
        return response.build();
    }

    @Override
    public Response cancel(String id) {
        Cancellation.Cancelled cancelled = actions.cancel(id);
        return Response.status(cancelled.stopping() ? Response.Status.ACCEPTED : Response.Status.OK)
                .entity(actions.view(cancelled.dispatch()))
                .build();
    }

    @Override
    public Response redeliver(String id) {
        callbacks.redeliver(actions.get(id));
        return Response.accepted(actions.view(actions.get(id))).build();
    }

    @Override
    public Response digest(String id) {
        return Response.ok(actions.digest(id), MediaType.APPLICATION_JSON).build();
    }

    @Override
    public Response logs(String id, String stream, String offset, String limit) {
        LogRange range = actions.log(id, stream, offset, limit, actions.defaultLogRange());
        return Response.ok(range.bytes(), MediaType.APPLICATION_OCTET_STREAM)
                .header("Sluice-Log-Offset", range.offset())
                .header("Sluice-Log-Next-Offset", range.offset() + range.bytes().length)
                .header("Sluice-Log-End", range.endOfLog())
                .build();
    }
}
