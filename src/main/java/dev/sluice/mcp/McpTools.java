package dev.sluice.mcp;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sluice.actions.Caller;
import dev.sluice.actions.DispatchActions;
import dev.sluice.actions.DispatchRequest;
import dev.sluice.actions.GroupActions;
import dev.sluice.actions.GroupRequest;
import dev.sluice.actions.Problem;
import dev.sluice.actions.ProblemException;
import dev.sluice.actions.Refusals;
import dev.sluice.actions.Relay;
import dev.sluice.trace.Tracing;
import io.opentelemetry.context.Scope;
import io.quarkiverse.mcp.server.ToolManager;
import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

/**
 * The MCP server's tools (docs/api.md, section 2.14; ADR 0027). Each goes
 * through {@link DispatchActions} or {@link GroupActions}, as the v1 API does: a request is read,
 * validated and refused as POST /v1/dispatches would, and a refusal is the
 * tool's error result carrying the same problem detail. Answers stay within
 * {@link AnswerBudget}.
 */
@Singleton
class McpTools {

    /** Each tool's arguments, read by Jackson (so registered for a native image too). */
    @RegisterForReflection
    record ResultArguments(String id, Boolean full) {}

    @RegisterForReflection
    record LogArguments(String id, String stream, Long offset, Long limit) {}

    @RegisterForReflection
    record IdArguments(String id) {}

    @RegisterForReflection
    record ListArguments(String status, Long limit, String after) {}

    /** Hints for clients: title, read-only, destructive, idempotent, open world. */
    private static final ToolManager.ToolAnnotations READ_ONLY =
            new ToolManager.ToolAnnotations(null, true, false, true, false);
    /** A new dispatch each call without an id. */
    private static final ToolManager.ToolAnnotations CREATES =
            new ToolManager.ToolAnnotations(null, false, false, false, false);
    /** Stops a container; again changes nothing. */
    private static final ToolManager.ToolAnnotations STOPS =
            new ToolManager.ToolAnnotations(null, false, true, true, false);

    @FunctionalInterface
    private interface Tool {
        String answer(String arguments) throws JsonProcessingException;
    }

    private final ToolManager tools;
    private final DispatchActions actions;
    private final GroupActions groups;
    private final FinishWaits waits;
    private final Refusals refusals;
    private final ObjectMapper json;
    private final AnswerBudget budget;
    private final Duration maxWait;
    private final CurrentVertxRequest request;
    private final McpCallbacks callbacks;
    private final McpFetches fetches;
    private final Tracing tracing;

    @Inject
    McpTools(
            ToolManager tools,
            DispatchActions actions,
            GroupActions groups,
            FinishWaits waits,
            Refusals refusals,
            ObjectMapper json,
            McpConfig config,
            CurrentVertxRequest request,
            Tracing tracing) {
        this.request = request;
        this.tracing = tracing;
        this.tools = tools;
        this.actions = actions;
        this.groups = groups;
        this.waits = waits;
        this.refusals = refusals;
        this.json = json;
        this.budget = new AnswerBudget(config.maxResultBytes().asLongValue(), json);
        this.maxWait = config.maxWait();
        this.callbacks = new McpCallbacks(config.callbackAllowedHosts().orElse(List.of()));
        this.fetches = new McpFetches(
                config.archiveAllowedHosts().orElse(List.of()),
                config.registryAllowedHosts().orElse(List.of()),
                actions::withoutPull);
    }

    void register(@Observes StartupEvent start) {
        ToolSchemas schemas = new ToolSchemas(json, maxWait, budget.max());
        tools.newTool("dispatch_subagent")
                .setDescription(schemas.description("dispatch_subagent"))
                .setInputSchema(
                        new JsonObject(schemas.input("dispatch_subagent").toString()))
                .setAnnotations(CREATES)
                .setAsyncHandler(this::dispatch)
                .register();
        register("get_result", schemas, READ_ONLY, this::result);
        register("read_log", schemas, READ_ONLY, this::log);
        register("cancel", schemas, STOPS, this::cancel);
        register("list_dispatches", schemas, READ_ONLY, this::list);
        register("dispatch_group", schemas, CREATES, this::dispatchGroup);
        register("get_group", schemas, READ_ONLY, this::group);
    }

    private void register(String name, ToolSchemas schemas, ToolManager.ToolAnnotations annotations, Tool tool) {
        tools.newTool(name)
                .setDescription(schemas.description(name))
                .setInputSchema(new JsonObject(schemas.input(name).toString()))
                .setAnnotations(annotations)
                .setHandler(call -> answer(call, tool))
                .register();
    }

    /** The tool's answer, or its refusal as an error result with the problem detail the API would send. */
    private ToolResponse answer(ToolManager.ToolArguments call, Tool tool) {
        try {
            return ToolResponse.success(tool.answer(arguments(call)));
        } catch (RuntimeException | JsonProcessingException e) {
            return refusal(e);
        }
    }

    private ToolResponse refusal(Throwable e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        Problem problem = refusals.of(cause).problem();
        try {
            return ToolResponse.error(json.writeValueAsString(problem));
        } catch (JsonProcessingException unwritable) {
            throw new IllegalStateException("a problem always writes", unwritable);
        }
    }

    /** The call's arguments as the client sent them, to be read as strictly as a request body. */
    private static String arguments(ToolManager.ToolArguments call) {
        JsonObject params = call.rawMessage().asJsonObject().getJsonObject("params");
        Object arguments = params == null ? null : params.getValue("arguments");
        if (arguments == null) {
            return "{}";
        }
        if (!(arguments instanceof JsonObject object)) {
            throw new ProblemException(
                    400, "malformed-body", "The arguments are not an object", "arguments must be a JSON object");
        }
        return object.encode();
    }

    /**
     * dispatch_subagent, answered without holding a thread while it waits
     * (ADR 0073). It is called on the event loop, where only the request's
     * caller, trace headers and arguments are read; the dispatch is accepted on
     * a worker thread; the wait is a future the dispatch's end (or the bound)
     * completes; and the answer is read on a worker thread again. A tenant's
     * waits held at once are bounded ({@link FinishWaits#hold}).
     */
    private Uni<ToolResponse> dispatch(ToolManager.ToolArguments call) {
        Accepting accepting;
        Context context;
        try {
            HttpServerRequest http = request.getCurrent().request();
            accepting = new Accepting(
                    arguments(call), caller(), http.getHeader(Tracing.TRACEPARENT), http.getHeader(Tracing.TRACESTATE));
            context = Vertx.currentContext();
            if (context == null) { // the extension calls an asynchronous tool on the request's event loop
                throw new IllegalStateException("dispatch_subagent was called outside a Vert.x context");
            }
        } catch (RuntimeException e) {
            return Uni.createFrom().item(refusal(e));
        }
        return blocking(context, () -> accept(accepting))
                .chain(waiting -> Uni.createFrom()
                        .completionStage(waiting.finished())
                        .chain(() -> blocking(context, () -> answer(waiting)))
                        .eventually(waiting.release()))
                .onFailure()
                .recoverWithItem(this::refusal);
    }

    /** What the event loop read of a dispatch_subagent call, for the worker thread that accepts it. */
    private record Accepting(String arguments, Caller caller, String traceparent, String tracestate) {}

    /** An accepted dispatch being waited for, with its tenant's place among the waits. */
    private record Waiting(
            Caller caller, String key, boolean created, CompletableFuture<Void> finished, Runnable release) {}

    /** Reads, checks and accepts the call (or replays it), holding a place among the waits when it waits. */
    private Waiting accept(Accepting call) throws JsonProcessingException {
        ObjectNode request = (ObjectNode) json.readTree(call.arguments());
        Duration wait = waitBound(request.remove("wait"));
        DispatchRequest parsed = actions.read(request.toString());
        callbacks.check(parsed);
        parsed = fetches.check(parsed);
        Runnable release = wait.isZero() ? () -> {} : waits.hold(call.caller().tenant())::close;
        try {
            DispatchActions.Accepted accepted;
            try (Scope trace = tracing.enter(call.traceparent(), call.tracestate())) {
                accepted = actions.create(call.caller(), parsed);
            }
            String key = accepted.dispatch().id();
            return new Waiting(call.caller(), key, accepted.created(), waits.until(key, wait), release);
        } catch (RuntimeException e) {
            release.run();
            throw e;
        }
    }

    private ToolResponse answer(Waiting waiting) throws JsonProcessingException {
        ObjectNode out = json.createObjectNode();
        out.put("replayed", !waiting.created());
        Caller caller = waiting.caller();
        out.set("digest", budget.tree(actions.digest(caller, caller.name(waiting.key()))));
        return ToolResponse.success(budget.small(out));
    }

    /** {@code work} on a worker thread of the request's context, never on its event loop. */
    private static <T> Uni<T> blocking(Context context, Callable<T> work) {
        return Uni.createFrom()
                .completionStage(() -> context.executeBlocking(work, false).toCompletionStage());
    }

    /** How long to wait: whole seconds from 0 to sluice.mcp.max-wait; 0 when absent. */
    private Duration waitBound(JsonNode wait) {
        long most = maxWait.toSeconds();
        if (wait == null || wait.isNull()) {
            return Duration.ZERO;
        }
        if (!wait.canConvertToExactIntegral()
                || !wait.isIntegralNumber()
                || wait.asLong() < 0
                || wait.asLong() > most) {
            throw ProblemException.invalid(
                    List.of(Problem.FieldError.of("wait", "must be an integer from 0 to " + most + " (seconds)")));
        }
        return Duration.ofSeconds(wait.asLong());
    }

    private String result(String arguments) throws JsonProcessingException {
        ResultArguments args = json.readValue(arguments, ResultArguments.class);
        String id = required("id", args.id());
        Caller caller = caller();
        byte[] digest = actions.digest(caller, id);
        if (!Boolean.TRUE.equals(args.full())) {
            return budget.small(budget.tree(digest));
        }
        Optional<byte[]> result = actions.result(caller, id);
        if (result.isEmpty()) {
            ObjectNode out = json.createObjectNode();
            out.set("digest", budget.tree(digest));
            out.putArray("omitted").add("no result yet: the dispatch has not finished");
            return budget.small(out);
        }
        return budget.result(result.get(), digest);
    }

    private String log(String arguments) throws JsonProcessingException {
        LogArguments args = json.readValue(arguments, LogArguments.class);
        String id = required("id", args.id());
        String stream = required("stream", args.stream());
        // No more is read than the answer could show; from the replica that ran it, signed by the replicas.
        Relay relay = Relay.ASKED;
        return budget.log(
                stream,
                actions.log(
                        caller(),
                        id,
                        stream,
                        text(args.offset()),
                        text(args.limit()),
                        budget.max(),
                        budget.max(),
                        relay));
    }

    private String cancel(String arguments) throws JsonProcessingException {
        IdArguments args = json.readValue(arguments, IdArguments.class);
        Caller caller = caller();
        String id = required("id", args.id());
        DispatchActions.Cancelled cancelled = actions.cancel(caller, id);
        ObjectNode out = json.createObjectNode();
        out.put("stopping", cancelled.stopping());
        out.set("digest", budget.tree(actions.digest(caller, id)));
        return budget.small(out);
    }

    private String list(String arguments) throws JsonProcessingException {
        ListArguments args = json.readValue(arguments, ListArguments.class);
        Caller caller = caller();
        return budget.list(
                actions.list(caller, args.status(), text(args.limit()), args.after()),
                item -> caller.name(item.tenant(), item.id()));
    }

    private String dispatchGroup(String arguments) throws JsonProcessingException {
        GroupRequest request = groups.read(arguments);
        callbacks.check(request);
        request = fetches.check(request);
        try (Scope trace = trace()) {
            return budget.group(groups.create(caller(), request));
        }
    }

    private String group(String arguments) throws JsonProcessingException {
        IdArguments args = json.readValue(arguments, IdArguments.class);
        return budget.group(groups.get(caller(), required("id", args.id())));
    }

    /** Who calls: {@link McpAccess} found it for the HTTP request the tool call came in. */
    /** The trace the MCP request's own {@code traceparent} header names, for what the call creates (ADR 0069). */
    private Scope trace() {
        HttpServerRequest http = request.getCurrent().request();
        return tracing.enter(http.getHeader(Tracing.TRACEPARENT), http.getHeader(Tracing.TRACESTATE));
    }

    private Caller caller() {
        Caller caller = request.getCurrent().get(Caller.CONTEXT_KEY);
        if (caller == null) { // McpAccess runs before every MCP route: this is a bug, never a client's doing
            throw new IllegalStateException("no caller for this tool call");
        }
        return caller;
    }

    private static String required(String field, String value) {
        if (value == null || value.isEmpty()) {
            throw ProblemException.invalid(List.of(Problem.FieldError.of(field, "is required")));
        }
        return value;
    }

    /** A number as its query parameter's text, so the API's own bounds check it. */
    private static String text(Long value) {
        return value == null ? null : value.toString();
    }
}
