package dev.sluice.api;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.core.Response;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.actions.Caller;
import dev.sluice.actions.DispatchActions;
import dev.sluice.actions.DispatchRequest;
import dev.sluice.actions.DispatchRequestValidator;
import dev.sluice.actions.DispatchView;
import dev.sluice.actions.Fingerprint;
import dev.sluice.actions.ProblemException;
import dev.sluice.callback.CallbackStore;
import dev.sluice.callback.DeliveryState;
import dev.sluice.concurrent.WarmUp;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchSpec;
import dev.sluice.record.RequestRefused;

/**
 * The REST edge's own work, taken once after start with requests that never
 * reach the intake: a request read with the API's mapper, validated and
 * fingerprinted; the records POST and GET answer with, queued and finished;
 * and refusals (an unknown field, invalid fields, a dispatch not found) as
 * problem details. The HTTP server's own first request is left to the first
 * client: a request to ourselves would count in the worker's HTTP metrics.
 */
@Singleton
class ApiWarmUp {

    private static final String REQUEST = """
            {"id": "warm-up", "image": "sluice.invalid/warm-up:none", "command": ["sh", "-c", "true"],
             "env": {"WARM_UP": "1"}, "timeout": "PT1M", "network": "none",
             "resources": {"memoryBytes": 67108864, "cpus": 0.5, "pids": 64},
             "output": {"stdoutCapBytes": 65536, "stderrCapBytes": 65536}, "metadata": {"warmUp": true}}""";
    private static final String UNKNOWN_FIELD = "{\"image\": \"sluice.invalid/warm-up:none\", \"warmUp\": true}";
    private static final String INVALID =
            "{\"image\": \"\", \"timeout\": \"soon\", \"callbackUrl\": \"https://192.0.2.1/warm-up\"}";
    private static final byte[] RESULT =
            "{\"dispatchId\":\"warm-up\",\"status\":\"succeeded\",\"exitCode\":0,\"stdout\":\"\",\"stderr\":\"\"}"
                    .getBytes(StandardCharsets.UTF_8);

    @Inject
    ObjectMapper json;

    @Inject
    DispatchActions actions;

    @Inject
    DispatchRequestValidator validator;

    @Inject
    Fingerprint fingerprint;

    @Inject
    ProblemMappers problems;

    @Inject
    Clock clock;

    void warmUp(@ObservesAsync @Priority(WarmUp.API) WarmUp warmUp) {
        warmUp.step("api", () -> {
            try {
                accept();
                answer();
                refuse();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** POST's own part: read (bounded, as a body is), validate and fingerprint the request, and answer 202. */
    private void accept() throws IOException {
        DispatchRequest request = actions.read(REQUEST);
        DispatchSpec spec = validator.validate(Caller.ANONYMOUS.tenant(), request);
        Dispatch queued = new Dispatch(
                request.id(),
                Dispatch.Status.QUEUED,
                spec.image(),
                clock.instant(),
                null,
                null,
                spec.metadata(),
                "https://192.0.2.1/warm-up",
                null,
                null,
                "warm-up",
                null,
                spec.hasSecrets(),
                fingerprint.of(request),
                1,
                null);
        DispatchView view = DispatchView.of(queued, Optional.empty());
        Response response = Response.accepted(view)
                .location(URI.create(view.links().self()))
                .header(DispatchResource.REPLAYED, null)
                .build();
        json.writeValueAsBytes(response.getEntity());
    }

    /** GET's: a finished record, its stored result and its callback's delivery. */
    private void answer() throws IOException {
        Instant now = clock.instant();
        Dispatch finished = DispatchView.withResult(
                new Dispatch(
                        "warm-up",
                        Dispatch.Status.SUCCEEDED,
                        "sluice.invalid/warm-up:none",
                        now,
                        now,
                        now,
                        null,
                        "https://192.0.2.1/warm-up",
                        null,
                        null,
                        "warm-up",
                        null,
                        false,
                        "",
                        1,
                        null),
                RESULT);
        CallbackStore.State delivered =
                new CallbackStore.State(DeliveryState.DELIVERED, 1, 204, null, null, now, List.of());
        json.writeValueAsBytes(DispatchView.of(finished, Optional.of(delivered)));
    }

    /** Refusals, as the exception mappers answer them. */
    private void refuse() throws IOException {
        try {
            actions.read(UNKNOWN_FIELD);
        } catch (JsonProcessingException e) {
            json.writeValueAsBytes(problems.json(e).getEntity());
        }
        try {
            validator.validate(Caller.ANONYMOUS.tenant(), actions.read(INVALID));
        } catch (ProblemException e) {
            json.writeValueAsBytes(problems.problem(e).getEntity());
        }
        RequestRefused notFound = new RequestRefused(RequestRefused.Reason.NOT_FOUND, "no dispatch warm-up");
        json.writeValueAsBytes(problems.unexpected(notFound).getEntity());
    }
}
