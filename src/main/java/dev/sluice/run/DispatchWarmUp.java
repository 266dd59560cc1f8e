package dev.sluice.run;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.concurrent.WarmUp;
import dev.sluice.output.OutputCollector;
import dev.sluice.output.OutputFormat;
import dev.sluice.output.SecretMasker;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchResult;
import dev.sluice.record.DispatchSpec;
import dev.sluice.record.DispatchStore;
import dev.sluice.record.DispatchTransitions;
import dev.sluice.record.Ending;
import dev.sluice.record.Outbox;
import dev.sluice.record.PullPolicy;
import dev.sluice.record.ResultBudget;
import dev.sluice.store.Jdbc;
import dev.sluice.store.JsonColumns;
import dev.sluice.store.ResultBodies;

/**
 * A dispatch's own way through the store, taken once after start for a
 * dispatch that does not exist: the lookup a request makes for its id, the
 * step to starting, and the finish (the result built from its captured
 * output, its JSON written where the store keeps bodies, the conditional
 * update that would store it), which finds no row to update and so gives its
 * body up again. Nothing is recorded and nothing is announced. Every statement
 * is bounded by what is left of the warm-up's deadline.
 */
@Singleton
class DispatchWarmUp {

    private static final byte[] OUTPUT = "warm-up\n".getBytes(StandardCharsets.UTF_8);

    @Inject
    Jdbc jdbc;

    @Inject
    JsonColumns json;

    @Inject
    ResultBodies bodies;

    @Inject
    Outbox outbox;

    @Inject
    Clock clock;

    @Inject
    ResultBudget budget;

    void warmUp(@ObservesAsync @Priority(WarmUp.DISPATCH) WarmUp warmUp) {
        warmUp.step("dispatch", () -> {
            Jdbc bounded = jdbc.bounded(warmUp.timeLeft());
            DispatchStore store = new DispatchStore(bounded, json, bodies);
            DispatchTransitions transitions = new DispatchTransitions(bounded, json, bodies);
            String id = warmUp.unknownId();
            expect(store.find(id).isEmpty(), "found");
            expect(store.storedResult(id).isEmpty(), "found with a result");
            expect(!transitions.markStarting(id, warmUp.unknownId()), "started");
            expect(
                    !transitions.finish(ending(id).closing(budget), DispatchTransitions.From.QUEUED, outbox),
                    "finished");
        });
    }

    private Ending ending(String id) {
        DispatchSpec spec = new DispatchSpec(
                "sluice.invalid/warm-up:none",
                PullPolicy.NEVER,
                List.of("true"),
                Map.of(),
                null,
                List.of(),
                null,
                null,
                Duration.ofMinutes(1),
                null,
                64L << 20,
                0,
                64,
                "none",
                null,
                OutputCollector.MIN_CAP,
                OutputCollector.MIN_CAP,
                OutputFormat.TEXT,
                OutputFormat.TEXT,
                List.of(),
                null,
                DispatchSpec.CallbackMode.FULL,
                DispatchSpec.CallbackEncoding.IDENTITY,
                Map.of("warmUp", true),
                null,
                1);
        Capture capture = new Capture(id, spec, SecretMasker.NONE);
        capture.stdout(OUTPUT, 0, OUTPUT.length);
        capture.stderr(OUTPUT, 0, OUTPUT.length);
        Instant now = clock.instant();
        return Ending.of(id, spec)
                .ended(Dispatch.Status.SUCCEEDED, 0, null)
                .ran(now, now)
                .output(Ending.Output.captured(
                        capture.finishStdout(DispatchResult.AvailableFrom.WHOLE),
                        capture.finishStderr(DispatchResult.AvailableFrom.WHOLE),
                        capture.nonce()))
                .build();
    }

    private static void expect(boolean holds, String what) {
        if (!holds) {
            throw new IllegalStateException("a dispatch that cannot exist was " + what);
        }
    }
}
