package dev.sluice.actions;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.core.JsonProcessingException;

import dev.sluice.actions.reading.BodyReader;
import dev.sluice.actions.reading.DecodingBudget;
import dev.sluice.callback.CallbackService;
import dev.sluice.callback.CallbackStore;
import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.engine.ContainerException;
import dev.sluice.image.ImagesConfig;
import dev.sluice.io.LogRange;
import dev.sluice.logs.DispatchLogs;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchQueries;
import dev.sluice.record.DispatchSpec;
import dev.sluice.record.DispatchStore;
import dev.sluice.record.PullPolicy;
import dev.sluice.record.RequestRefused;
import dev.sluice.record.StoredResult;
import dev.sluice.run.Cancellation;
import dev.sluice.run.DispatchIntake;
import dev.sluice.workspace.WorkspaceRefused;
import dev.sluice.workspace.WorkspaceRequest;
import dev.sluice.workspace.Workspaces;

/**
 * What a client can do with dispatches, with the checks each action takes:
 * one implementation behind every door (the v1 API, the MCP server), so a
 * request is read, validated and refused the same way whichever it came
 * through. Refusals are thrown ({@link ProblemException}, or the dispatch
 * package's own), and {@link Refusals} describes them.
 */
@Singleton
public class DispatchActions {

    private final DispatchIntake intake;
    private final DispatchQueries queries;
    private final Cancellation cancellation;
    private final DispatchLogs logs;
    private final LogReads logReads;
    private final DispatchRequestValidator validator;
    private final Fingerprint fingerprint;
    private final ApiConfig config;
    private final CallbackService callbacks;
    private final BodyReader bodies;
    private final Workspaces workspaces;
    private final OwnerReads owners;
    private final ContainerRuntime engine;
    private final PullPolicy pullPolicy;

    @Inject
    DispatchActions(
            DispatchIntake intake,
            DispatchQueries queries,
            Cancellation cancellation,
            DispatchLogs logs,
            LogReads logReads,
            DispatchRequestValidator validator,
            Fingerprint fingerprint,
            ApiConfig config,
            CallbackService callbacks,
            BodyReader bodies,
            Workspaces workspaces,
            OwnerReads owners,
            ContainerRuntime engine,
            ImagesConfig images) {
        this.intake = intake;
        this.queries = queries;
        this.cancellation = cancellation;
        this.logs = logs;
        this.logReads = logReads;
        this.validator = validator;
        this.fingerprint = fingerprint;
        this.config = config;
        this.callbacks = callbacks;
        this.bodies = bodies;
        this.workspaces = workspaces;
        this.owners = owners;
        this.engine = engine;
        this.pullPolicy = images.pullPolicy();
    }

    /**
     * Reads POST's body within the bounds of the contract and {@code grant}
     * (ADR 0076): unknown fields and wrong types are refused, and so is a body
     * past a bound, before anything of it is built; {@code null} when empty.
     */
    public DispatchRequest read(InputStream body, DecodingBudget.Grant grant) throws IOException {
        return bodies.read(body, DispatchRequest.class, BodyReader.Shape.DISPATCH, grant);
    }

    /** Reads a request from JSON already charged (MCP arguments) as POST's body is read. */
    public DispatchRequest read(String body) throws JsonProcessingException {
        return bodies.read(body, DispatchRequest.class, BodyReader.Shape.DISPATCH);
    }

    /** A dispatch accepted: its record, and whether this request created it (false: an earlier one did). */
    public record Accepted(Dispatch dispatch, boolean created) {}

    /** A dispatch asked to stop: its record, and whether a container is still being stopped. */
    public record Cancelled(Dispatch dispatch, boolean stopping) {}

    /**
     * Validates and accepts a request in the caller's tenant, or replays the dispatch an
     * earlier one with the same id made there.
     */
    public Accepted create(Caller caller, DispatchRequest request) {
        DispatchIntake.Accepted accepted = accept(caller, request);
        return new Accepted(accepted.dispatch(), accepted.created());
    }

    private DispatchIntake.Accepted accept(Caller caller, DispatchRequest request) {
        DispatchSpec spec = validator.validate(caller.tenant(), request);
        if (request.workspace() == null) {
            return intake.accept(caller.tenant(), request.id(), spec, fingerprint.of(request));
        }
        // Every other field is checked before the workspace is written; it is kept under the dispatch's key
        // only once the dispatch is recorded, and a refused or replayed request leaves no file (ADR 0060).
        try (Workspaces.Staged staged = stage(request.workspace())) {
            workspaces.reserve(staged, caller.tenant());
            return intake.accept(
                    caller.tenant(),
                    request.id(),
                    validator.validate(caller.tenant(), request, staged.source()),
                    fingerprint.of(request),
                    key -> workspaces.keep(staged, key));
        }
    }

    /**
     * The request as it runs without any pull, when it can: as it is when its
     * pull policy is {@code never} (or when it will be refused anyway), narrowed
     * to {@code never} when the policy is {@code if-not-present} and the engine
     * holds the image now, so that an image removed meanwhile ends
     * {@code image_not_found} rather than being pulled. Empty when it would be
     * pulled. For a door whose caller may not choose a registry (MCP, ADR 0075).
     */
    public Optional<DispatchRequest> withoutPull(DispatchRequest request) {
        PullPolicy policy = PullPolicies.narrowed(request.imagePullPolicy(), pullPolicy, new ArrayList<>());
        if (policy == null || policy == PullPolicy.NEVER || request.imageRegistry() == null) {
            return Optional.of(request);
        }
        if (policy == PullPolicy.ALWAYS) {
            return Optional.empty();
        }
        boolean held;
        try {
            held = engine.findImage(request.image()).isPresent();
        } catch (ContainerException e) {
            throw new RequestRefused(
                    RequestRefused.Reason.ENGINE_UNAVAILABLE,
                    "the Docker engine did not say whether it holds the image; nothing was accepted");
        }
        return held ? Optional.of(request.withImagePullPolicy(PullPolicy.NEVER.wire())) : Optional.empty();
    }

    private Workspaces.Staged stage(WorkspaceRequest workspace) {
        try {
            return workspaces.stage(workspace);
        } catch (WorkspaceRefused e) {
            throw ProblemException.invalid(List.of(Problem.FieldError.of(e.field(), e.detail())));
        }
    }

    /** The dispatch the caller names {@code id}; another tenant's is not found, as an unknown one. */
    public Dispatch get(Caller caller, String id) {
        return queries.get(caller.dispatchKey(id));
    }

    /** The digest's JSON (docs/api.md, section 7.6). */
    public byte[] digest(Caller caller, String id) {
        return queries.digest(caller.dispatchKey(id));
    }

    public DispatchView view(Dispatch d) {
        return DispatchView.of(d, d.callbackUrl() == null ? Optional.empty() : callbacks.state(d.id()));
    }

    /**
     * A page of the caller's listing (every tenant's for an operator); the arguments are
     * the query parameters' text, each optional.
     */
    public DispatchListView list(Caller caller, String status, String limit, String after) {
        Dispatch.Status wanted = status == null || status.isEmpty() ? null : parseStatus(status);
        int size = limit == null || limit.isEmpty()
                ? config.defaultPageSize()
                : QueryParams.intIn("limit", limit, 1, config.maxPageSize());
        String afterKey = after == null
                ? null
                : caller.key(after)
                        .orElseThrow(() -> ProblemException.invalid(
                                List.of(Problem.FieldError.of("after", "is not a dispatch id"))));
        DispatchStore.Page page = queries.list(caller.listedTenant(), wanted, size, afterKey);
        Map<String, CallbackStore.State> deliveries = callbacks.states(page.items().stream()
                .filter(d -> d.callbackUrl() != null)
                .map(Dispatch::id)
                .toList());
        String next = page.nextAfter() == null
                ? null
                : "/v1/dispatches?" + (wanted == null ? "" : "status=" + wanted.wire() + "&") + "limit=" + size
                        + "&after=" + caller.name(page.nextAfter());
        return new DispatchListView(
                page.items().stream()
                        .map(d -> DispatchListView.Item.of(d, Optional.ofNullable(deliveries.get(d.id()))))
                        .toList(),
                next);
    }

    private static Dispatch.Status parseStatus(String status) {
        try {
            return Dispatch.Status.fromWire(status);
        } catch (IllegalArgumentException e) {
            throw ProblemException.invalid(List.of(Problem.FieldError.of(
                    "status",
                    "must be one of queued, starting, " + "running, succeeded, failed, timed_out, cancelled, error")));
        }
    }

    /**
     * Sends the stored result of the dispatch the caller names {@code id} to its
     * callback URL again, now, with the same webhook-id and body; gives the
     * record as it reads after.
     */
    public Dispatch redeliver(Caller caller, String id) {
        callbacks.redeliver(get(caller, id));
        return get(caller, id);
    }

    /** The stored result's JSON (docs/api.md, section 7); empty until the dispatch has finished. */
    public Optional<byte[]> result(Caller caller, String id) {
        return Optional.ofNullable(get(caller, id).result()).map(StoredResult::json);
    }

    /** The dispatch with this key, for a door that holds the key already (a wait on its finish). */
    public Dispatch record(String key) {
        return queries.get(key);
    }

    public Cancelled cancel(Caller caller, String id) {
        Cancellation.Cancelled cancelled = cancellation.cancel(caller.dispatchKey(id));
        return new Cancelled(cancelled.dispatch(), cancelled.stopping());
    }

    /**
     * A byte range of a stream, from the replica that ran the dispatch when
     * that is another one (ADR 0065); offset and limit are the query
     * parameters' text, each optional, and limit defaults to
     * {@code sluice.api.default-log-range} when absent (at most
     * {@code sluice.api.max-log-range}).
     */
    public LogRange log(Caller caller, String id, String stream, String offset, String limit, Relay relay) {
        return log(caller, id, stream, offset, limit, defaultLogRange(), Integer.MAX_VALUE, relay);
    }

    /**
     * As {@link #log(Caller, String, String, String, String, Relay)}, with limit
     * defaulting to {@code defaultLimit}, reading at most {@code most} bytes
     * whatever the limit: a door that answers with fewer (an MCP answer's
     * budget) reads no more than it can show.
     */
    public LogRange log(
            Caller caller,
            String id,
            String stream,
            String offset,
            String limit,
            long defaultLimit,
            int most,
            Relay relay) {
        String key = caller.dispatchKey(id);
        if (!"stdout".equals(stream) && !"stderr".equals(stream)) {
            throw new ProblemException(404, "not-found", "No such stream", "streams are stdout and stderr");
        }
        long from =
                offset == null || offset.isEmpty() ? 0 : QueryParams.longIn("offset", offset, 0, Long.MAX_VALUE / 2);
        int max = (int) config.maxLogRange().asLongValue();
        int size = limit == null || limit.isEmpty()
                ? (int) Math.min(max, defaultLimit)
                : QueryParams.intIn("limit", limit, 1, max);
        int read = Math.min(size, most);
        return logReads.open(
                caller.tenant(),
                () -> owners.log(caller.tenant(), key, id, stream, from, read, relay)
                        .orElseGet(() -> logs.read(key, stream.equals("stdout"), from, read)));
    }

    /** A range read's limit when the request names none: {@code sluice.api.default-log-range}. */
    public long defaultLogRange() {
        return config.defaultLogRange().asLongValue();
    }
}
