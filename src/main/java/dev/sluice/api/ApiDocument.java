package dev.sluice.api;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.callbacks.Callback;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;

import dev.sluice.actions.DispatchRequestValidator;
import dev.sluice.actions.Problem;
import dev.sluice.trace.Tracing;
import io.quarkus.smallrye.openapi.OpenApiFilter;

/**
 * Completes, at build time, the OpenAPI document that {@link DispatchApi}'s
 * annotations make (docs/openapi.yaml is its checked-in copy, ADR 0021). What
 * many answers share is written here once: every refusal gets the problem body
 * and its headers, every operation the two refusals any route can give (401
 * when tokens are set, 500), the refusals that many give alike ({@link
 * #completeSharedRefusals}), the routes of one dispatch their {@code id}
 * parameter, each callback the Standard Webhooks headers it is signed with,
 * and the document the bearer scheme. Maps are sorted, so that the
 * same code always makes the same document.
 */
@OpenApiFilter(OpenApiFilter.RunStage.BUILD)
public class ApiDocument implements OASFilter {

    /** The path parameter {@code id} of the routes of one dispatch, by reference. */
    static final String DISPATCH_ID = "dispatchId";

    private static final String BEARER = "bearer";

    @Override
    public void filterOpenAPI(OpenAPI document) {
        document.getPaths()
                .getPathItems()
                .forEach((route, path) ->
                        path.getOperations().values().forEach(operation -> completeSharedRefusals(route, operation)));
        document.getPaths()
                .getPathItems()
                .values()
                .forEach(path -> path.getOperations().values().forEach(ApiDocument::completeRefusals));
        document.getPaths()
                .getPathItems()
                .values()
                .forEach(path -> path.getOperations().values().forEach(ApiDocument::completeCallbacks));
        Components components = document.getComponents();
        components.addParameter(DISPATCH_ID, dispatchId());
        nullableResult(components.getSchemas().get("DispatchRecord"));
        components.addSecurityScheme(
                BEARER,
                OASFactory.createSecurityScheme()
                        .type(SecurityScheme.Type.HTTP)
                        .scheme("bearer")
                        .description("One of sluice.api.tokens; with none set the API is open"));
        // Either a token, or nothing when the worker has none configured.
        document.setSecurity(List.of(
                OASFactory.createSecurityRequirement().addScheme(BEARER), OASFactory.createSecurityRequirement()));
        document.getPaths().setPathItems(sorted(document.getPaths().getPathItems()));
        components.setSchemas(sorted(components.getSchemas()));
    }

    /**
     * The generator writes a type beside a reference ({@code $ref}, or
     * {@code anyOf} a reference and null for a nullable one); for a nullable
     * object that type would refuse the null. The referenced schema carries the
     * type.
     */
    @Override
    public Schema filterSchema(Schema schema) {
        boolean refers = schema.getRef() != null
                || (schema.getAnyOf() != null && schema.getAnyOf().stream().anyMatch(s -> s.getRef() != null));
        if (refers) {
            schema.setType(null);
        }
        return schema;
    }

    /**
     * The refusals that many operations give in the same words, each declared
     * here once; an operation that declares the status itself keeps its own
     * words. An operation that takes a body refuses an empty or malformed one,
     * an oversized one and one of another media type; one of a single dispatch
     * answers 404 for an unknown id; one that reads the store answers 503 when
     * the store does not.
     */
    private static void completeSharedRefusals(String route, Operation operation) {
        if (operation.getRequestBody() != null) {
            shared(operation, "400", "body-required (an empty body) or malformed-body (not a JSON object)");
            shared(
                    operation,
                    "413",
                    "body-too-large: the body is over sluice.api.max-request-size, or holds more than 200000 JSON "
                            + "tokens or a number or key longer than the worker reads (docs/api.md, section 3.7)");
            shared(operation, "415", "http-415: the Content-Type is not application/json");
        }
        if (route.startsWith("/v1/dispatches/{id}")) {
            shared(operation, "404", "not-found: no dispatch has this id");
        }
        if (route.startsWith("/v1/dispatches") || route.startsWith("/v1/dispatch-groups")) {
            shared(operation, "503", "store-unavailable");
        }
    }

    private static void shared(Operation operation, String status, String description) {
        APIResponses responses = operation.getResponses();
        if (responses.getAPIResponse(status) == null) {
            responses.addAPIResponse(status, OASFactory.createAPIResponse().description(description));
        }
    }

    private static void completeRefusals(Operation operation) {
        APIResponses responses = operation.getResponses();
        responses.addAPIResponse(
                "401",
                OASFactory.createAPIResponse()
                        .description("unauthorized: sluice.api.tokens is set and the request has no valid bearer token")
                        .addHeader("WWW-Authenticate", header("Bearer: the scheme to use", Schema.SchemaType.STRING)));
        responses.addAPIResponse(
                "500",
                OASFactory.createAPIResponse()
                        .description("internal-error: detail quotes an error id the worker logged the failure under"));
        responses.getAPIResponses().forEach((status, response) -> {
            if (status.startsWith("4") || status.startsWith("5")) {
                problem(status, response);
            }
        });
        responses.setAPIResponses(sorted(responses.getAPIResponses()));
    }

    /**
     * Every callback is signed and answered the same way (docs/api.md,
     * sections 8.2 and 8.4): its Standard Webhooks headers and the answers a
     * receiver gives are written here once, for each callback an operation
     * declares.
     */
    private static void completeCallbacks(Operation operation) {
        if (operation.getCallbacks() == null) {
            return;
        }
        for (Callback callback : operation.getCallbacks().values()) {
            for (PathItem item : callback.getPathItems().values()) {
                item.getOperations()
                        .values()
                        .forEach(post -> post.parameters(callbackHeaders())
                                .responses(OASFactory.createAPIResponses()
                                        .addAPIResponse(
                                                "200",
                                                OASFactory.createAPIResponse().description("delivered (any 2xx)"))
                                        .addAPIResponse(
                                                "410",
                                                OASFactory.createAPIResponse()
                                                        .description("the receiver wants no more of this message: its "
                                                                + "delivery stops (docs/api.md, section 8.4)"))));
            }
        }
    }

    private static List<Parameter> callbackHeaders() {
        return List.of(
                callbackHeader(
                        "webhook-id",
                        true,
                        "msg_ and the key of what it reports (<tenant>.<id>, or the id alone in the tenant "
                                + "default); the same on every attempt: deduplicate on it"),
                callbackHeader("webhook-timestamp", true, "Unix time of this attempt, in seconds; signed"),
                callbackHeader(
                        "webhook-signature",
                        true,
                        "v1,<base64 HMAC-SHA256> for each of the tenant's secrets, space-separated, over "
                                + "webhook-id.webhook-timestamp.body"),
                callbackHeader(
                        Tracing.TRACEPARENT, false, "W3C Trace Context of this attempt; not signed: for tracing only"));
    }

    private static Parameter callbackHeader(String name, boolean required, String description) {
        return OASFactory.createParameter()
                .name(name)
                .in(Parameter.In.HEADER)
                .required(required)
                .description(description)
                .schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING));
    }

    private static void problem(String status, APIResponse response) {
        response.content(OASFactory.createContent()
                .addMediaType(
                        Problem.MEDIA_TYPE,
                        OASFactory.createMediaType()
                                .schema(OASFactory.createSchema().ref("Problem"))));
        if (status.equals("429") || status.equals("503")) {
            response.addHeader(
                    "Retry-After",
                    header("seconds to wait: sluice.dispatch.retry-after (5 s)", Schema.SchemaType.INTEGER));
        }
    }

    private static Parameter dispatchId() {
        return OASFactory.createParameter()
                .name("id")
                .in(Parameter.In.PATH)
                .required(true)
                .description("the dispatch id")
                .schema(OASFactory.createSchema()
                        .addType(Schema.SchemaType.STRING)
                        .pattern(DispatchRequestValidator.ID_PATTERN));
    }

    /**
     * The record's result is a DispatchResult's stored JSON ({@code StoredResult}),
     * or null until the dispatch ends. The generator drops the null from a
     * property that names its schema by reference, so it is added here.
     */
    private static void nullableResult(Schema record) {
        Schema result = record.getProperties().get("result");
        record.addProperty(
                "result",
                OASFactory.createSchema()
                        .description(result.getDescription())
                        .anyOf(List.of(
                                OASFactory.createSchema().ref(result.getRef()),
                                OASFactory.createSchema().addType(Schema.SchemaType.NULL))));
    }

    private static Header header(String description, Schema.SchemaType type) {
        return OASFactory.createHeader()
                .description(description)
                .schema(OASFactory.createSchema().addType(type));
    }

    private static <V> Map<String, V> sorted(Map<String, V> map) {
        return map == null ? null : new TreeMap<>(map);
    }
}
